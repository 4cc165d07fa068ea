// The headless node host: connects to a gateway as `role: "node"` / `client.mode: "node"` with its
// own device identity (identity-store.ts), declaring the commands its policy allows, answers every
// `node.invoke.request` with `node.invoke.result`, and reconnects with backoff (500 ms doubling to
// 10 s; reset after a good connect). An unpaired node waits, retrying, until an operator approves its
// pairing request; a stale device token is dropped and the connect retried with the shared secret.

import { deviceSigner } from "../client/device.js";
import { connectGateway, type GatewayClient, GatewayRequestError } from "../client/index.js";
import { abortableSleep } from "../lib/abortable-sleep.js";
import { loadNodeIdentity, type NodeIdentity, saveNodeDeviceToken } from "./identity-store.js";
import {
  declaredCommands,
  handleInvoke,
  type NodeHostPolicy,
  type NodeInvokeRequest,
} from "./invoke.js";

/** Most invokes running at once on one node; more are answered BUSY. */
export const MAX_CONCURRENT_INVOKES = 8;
/** First delay before a reconnect (doubled per failed attempt). */
export const RECONNECT_MIN_MS = 500;
/** Longest delay between connect attempts. */
export const RECONNECT_MAX_MS = 10_000;

/** Inputs of {@link runNodeHost}. */
export interface NodeHostOptions {
  url: string;
  token?: string;
  password?: string;
  displayName: string;
  /** The node's own state dir (its identity and device token). */
  stateDir: string;
  policy: NodeHostPolicy;
  version: string;
  platform: string;
  /** Connect and request bound. */
  timeoutMs: number;
  /** Progress lines for the operator (connected, waiting for approval, disconnected). */
  log: (line: string) => void;
  /** Ends the host: the connection closes and the promise resolves. */
  signal: AbortSignal;
}

function connectOnce(options: NodeHostOptions, node: NodeIdentity): Promise<GatewayClient> {
  return connectGateway({
    url: options.url,
    ...(options.token ? { token: options.token } : {}),
    ...(options.password ? { password: options.password } : {}),
    ...(node.deviceToken ? { deviceToken: node.deviceToken } : {}),
    client: {
      id: "node-host",
      mode: "node",
      version: options.version,
      platform: options.platform,
      displayName: options.displayName,
    },
    role: "node",
    scopes: [],
    commands: declaredCommands(options.policy),
    timeoutMs: options.timeoutMs,
    device: deviceSigner(node.identity),
  });
}

/** Answers invokes on one connection until it closes. */
async function serve(params: {
  options: NodeHostOptions;
  client: GatewayClient;
  nodeId: string;
}): Promise<string> {
  const { options, client, nodeId } = params;
  let running = 0;
  const answer = async (request: NodeInvokeRequest) => {
    running++;
    try {
      const outcome =
        running > MAX_CONCURRENT_INVOKES
          ? {
              ok: false as const,
              error: {
                code: "BUSY",
                message: `node is running ${MAX_CONCURRENT_INVOKES} commands already`,
              },
            }
          : await handleInvoke({ policy: options.policy, request, signal: options.signal }).catch(
              (err: unknown) => ({
                ok: false as const,
                error: {
                  code: "UNAVAILABLE",
                  message: `${request.command} failed on the node: ${String(err)}`,
                },
              }),
            );
      await client.request("node.invoke.result", {
        id: request.id,
        nodeId: request.nodeId,
        ok: outcome.ok,
        ...(outcome.ok
          ? { payloadJSON: JSON.stringify(outcome.payload ?? null) }
          : { error: outcome.error }),
      });
    } catch (err) {
      // The connection went away before the answer: the gateway already ended that invoke.
      options.log(`could not answer ${request.command} (${request.id}): ${String(err)}`);
    } finally {
      running--;
    }
  };
  const off = client.onEvent("node.invoke.request", (event) => {
    const request = event.payload as NodeInvokeRequest;
    if (request?.nodeId !== nodeId) return;
    void answer(request);
  });
  const stop = () => void client.close();
  options.signal.addEventListener("abort", stop, { once: true });
  try {
    const closed = await client.closed;
    return `${closed.code}${closed.reason ? ` ${closed.reason}` : ""}`;
  } finally {
    off();
    options.signal.removeEventListener("abort", stop);
  }
}

/** Runs the node host until `signal` aborts (see the file comment). */
export async function runNodeHost(options: NodeHostOptions): Promise<void> {
  let node = loadNodeIdentity(options.stateDir);
  const nodeId = node.identity.deviceId;
  let attempt = 0;
  while (!options.signal.aborted) {
    try {
      const client = await connectOnce(options, node);
      attempt = 0;
      const issued = client.hello.auth.deviceToken;
      if (issued && issued !== node.deviceToken)
        node = saveNodeDeviceToken(options.stateDir, node, issued);
      options.log(
        `connected to ${options.url} as node ${nodeId} (${options.displayName}); commands: ${declaredCommands(options.policy).join(", ")}`,
      );
      const why = await serve({ options, client, nodeId });
      if (options.signal.aborted) break;
      options.log(`disconnected (${why}); reconnecting`);
    } catch (err) {
      if (!(err instanceof GatewayRequestError)) throw err;
      if (err.detailCode === "DEVICE_TOKEN_INVALID" && node.deviceToken) {
        options.log("the gateway refused the stored device token; retrying without it");
        node = saveNodeDeviceToken(options.stateDir, node, undefined);
        continue;
      }
      const requestId = (err.details as { requestId?: unknown } | undefined)?.requestId;
      options.log(
        err.code === "NOT_PAIRED" && typeof requestId === "string"
          ? `pairing required: approve request ${requestId} on the gateway host (pincer devices approve ${requestId}); retrying`
          : `connect failed: ${err.code}${err.detailCode ? ` (${err.detailCode})` : ""}: ${err.message}; retrying`,
      );
    }
    await abortableSleep(
      Math.min(RECONNECT_MIN_MS * 2 ** attempt++, RECONNECT_MAX_MS),
      options.signal,
    );
  }
}
