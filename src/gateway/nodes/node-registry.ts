// The connected node hosts (`role: "node"` connections) and their in-flight invokes. `invoke` sends
// one `node.invoke.request` event to the node's connection and waits for its `node.invoke.result`
// (matched by invoke id AND the connection it was sent to), the invoke's timeout, or the node's
// disconnect, whichever comes first; each ends the invoke with a value, never a throw.
import { randomUUID } from "node:crypto";
import type { Logger } from "../../lib/logger.js";
import {
  type ConnectParams,
  ErrorCodes,
  type GatewayErrorShape,
  gatewayError,
} from "../../protocol/gateway/index.js";
import { type EventFrame, serializeEvent } from "../events/event-fanout.js";

/** Default bound of one invoke when the caller gives none (OpenClaw's 30 s). */
export const DEFAULT_NODE_INVOKE_TIMEOUT_MS = 30_000;
/** Largest invoke bound a caller may ask for (10 min). */
export const MAX_NODE_INVOKE_TIMEOUT_MS = 600_000;

/** What the registry needs of a node's connection. */
export interface NodeConnection {
  readonly connId: string;
  readonly remoteAddress: string;
  readonly isLoopback: boolean;
  /** Sends an event frame to this connection only; false when it could not be sent. */
  sendEventFrame(frame: EventFrame, slowClientBytes: number): boolean;
}

/** One connected node, as `node.list` / `node.describe` show it. */
export interface NodeSession {
  nodeId: string;
  connId: string;
  displayName?: string;
  platform?: string;
  version?: string;
  deviceFamily?: string;
  remoteIp?: string;
  caps: string[];
  commands: string[];
  connectedAtMs: number;
}

/** An invoke's outcome: the node's payload, or an error value for the caller. */
export type NodeInvokeOutcome =
  | { ok: true; payload: unknown; payloadJSON: string | null }
  | { ok: false; error: GatewayErrorShape };

/** What a node sent back (`node.invoke.result` params). */
export interface NodeInvokeAnswer {
  id: string;
  nodeId: string;
  ok: boolean;
  payload?: unknown;
  payloadJSON?: string;
  error?: { code?: string; message?: string };
}

interface PendingInvoke {
  nodeId: string;
  connId: string;
  command: string;
  settle: (outcome: NodeInvokeOutcome) => void;
  timer: NodeJS.Timeout;
}

/** Inputs of {@link NodeRegistry.invoke}. */
export interface NodeInvokeRequest {
  nodeId: string;
  command: string;
  params?: unknown;
  timeoutMs?: number;
  idempotencyKey: string;
}

const unavailable = (message: string, details: Record<string, unknown>) =>
  gatewayError(ErrorCodes.UNAVAILABLE, message, { details });

/** The registry of one gateway (no module state). */
export class NodeRegistry {
  private readonly nodes = new Map<string, { session: NodeSession; conn: NodeConnection }>();
  private readonly pending = new Map<string, PendingInvoke>();
  private readonly now: () => number;
  private readonly logger: Logger;

  constructor(params: { now: () => number; logger: Logger }) {
    this.now = params.now;
    this.logger = params.logger;
  }

  /** Records a ready node connection; its id is its device id (else its instance or client id). */
  register(params: {
    conn: NodeConnection;
    connect: ConnectParams;
    deviceId?: string;
  }): NodeSession {
    const { conn, connect } = params;
    const client = connect.client;
    const nodeId = params.deviceId ?? client.instanceId ?? client.id;
    const session: NodeSession = {
      nodeId,
      connId: conn.connId,
      ...(client.displayName ? { displayName: client.displayName } : {}),
      platform: client.platform,
      version: client.version,
      ...(client.deviceFamily ? { deviceFamily: client.deviceFamily } : {}),
      ...(conn.isLoopback ? {} : { remoteIp: conn.remoteAddress }),
      caps: [...new Set(connect.caps ?? [])],
      commands: [...new Set(connect.commands ?? [])],
      connectedAtMs: this.now(),
    };
    const previous = this.nodes.get(nodeId);
    if (previous) this.failPending(previous.session.connId, "replaced by a newer connection");
    this.nodes.set(nodeId, { session, conn });
    this.logger.info(
      `node ${nodeId.slice(0, 12)} connected (${session.commands.join(", ") || "no commands"})`,
    );
    return session;
  }

  /** Forgets a closed connection; its in-flight invokes end with NODE_DISCONNECTED. */
  unregister(connId: string): void {
    for (const [nodeId, entry] of this.nodes) {
      if (entry.session.connId !== connId) continue;
      this.nodes.delete(nodeId);
      this.logger.info(`node ${nodeId.slice(0, 12)} disconnected`);
    }
    this.failPending(connId, "disconnected");
  }

  /** The connected node with this id. */
  get(nodeId: string): NodeSession | undefined {
    return this.nodes.get(nodeId)?.session;
  }

  /** Every connected node, oldest connection first. */
  listConnected(): NodeSession[] {
    return [...this.nodes.values()].map((entry) => entry.session);
  }

  /** How many invokes wait for a node's answer. */
  inFlight(): number {
    return this.pending.size;
  }

  /** Sends the command to the node and waits for its answer (see the file comment). */
  invoke(request: NodeInvokeRequest): Promise<NodeInvokeOutcome> {
    const entry = this.nodes.get(request.nodeId);
    const details = { nodeId: request.nodeId, command: request.command };
    if (!entry) {
      return Promise.resolve({
        ok: false,
        error: unavailable("node not connected", { code: "NOT_CONNECTED", ...details }),
      });
    }
    const timeoutMs = Math.min(
      request.timeoutMs ?? DEFAULT_NODE_INVOKE_TIMEOUT_MS,
      MAX_NODE_INVOKE_TIMEOUT_MS,
    );
    const id = randomUUID();
    return new Promise<NodeInvokeOutcome>((resolve) => {
      const settle = (outcome: NodeInvokeOutcome) => {
        const pending = this.pending.get(id);
        if (!pending) return;
        clearTimeout(pending.timer);
        this.pending.delete(id);
        resolve(outcome);
      };
      const timer = setTimeout(
        () =>
          settle({
            ok: false,
            error: unavailable(
              `node ${request.nodeId} did not answer ${request.command} within ${timeoutMs} ms`,
              { code: "TIMEOUT", timeoutMs, ...details },
            ),
          }),
        timeoutMs,
      );
      this.pending.set(id, {
        nodeId: request.nodeId,
        connId: entry.session.connId,
        command: request.command,
        settle,
        timer,
      });
      const frame = serializeEvent({
        event: "node.invoke.request",
        payload: {
          id,
          nodeId: request.nodeId,
          command: request.command,
          ...(request.params !== undefined ? { paramsJSON: JSON.stringify(request.params) } : {}),
          timeoutMs,
          idempotencyKey: request.idempotencyKey,
        },
      });
      if (!entry.conn.sendEventFrame(frame, Number.POSITIVE_INFINITY)) {
        settle({
          ok: false,
          error: unavailable("node connection is not open", { code: "NOT_CONNECTED", ...details }),
        });
      }
    });
  }

  /** A node's answer; false when no invoke sent to this connection has that id (late or foreign). */
  answer(connId: string, result: NodeInvokeAnswer): boolean {
    const pending = this.pending.get(result.id);
    if (!pending || pending.connId !== connId || pending.nodeId !== result.nodeId) return false;
    if (result.ok) {
      const payloadJSON = result.payloadJSON ?? null;
      pending.settle({ ok: true, payload: parsePayload(result), payloadJSON });
      return true;
    }
    const code = result.error?.code ?? "NODE_ERROR";
    const message = result.error?.message ?? `${pending.command} failed on the node`;
    pending.settle({
      ok: false,
      error: unavailable(message, {
        code,
        nodeId: pending.nodeId,
        command: pending.command,
        nodeError: result.error ?? null,
      }),
    });
    return true;
  }

  private failPending(connId: string, why: string): void {
    for (const pending of [...this.pending.values()]) {
      if (pending.connId !== connId) continue;
      pending.settle({
        ok: false,
        error: unavailable(
          `node ${pending.nodeId} ${why} before answering ${pending.command}; it may or may not have run`,
          { code: "NODE_DISCONNECTED", nodeId: pending.nodeId, command: pending.command },
        ),
      });
    }
  }
}

/** The payload of an answer: `payload`, else `payloadJSON` parsed (unparsable JSON stays text). */
function parsePayload(result: NodeInvokeAnswer): unknown {
  if (result.payload !== undefined || result.payloadJSON === undefined) return result.payload;
  try {
    return JSON.parse(result.payloadJSON) as unknown;
  } catch {
    // Not JSON: the caller still gets the node's text as it came (payloadJSON carries it too).
    return result.payloadJSON;
  }
}
