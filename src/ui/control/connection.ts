// The Control UI's one gateway connection, over the shared protocol client (client/gateway-client.ts)
// with the browser's WebSocket: the gateway token and/or the device token this browser was issued,
// the device proof signed by the browser identity, reconnects with capped backoff, and a status the
// shell shows. A refused token ends the loop (login again); a device awaiting pairing approval and
// a dropped socket retry; a stale device token is dropped and the connect retried without it.
import { connectGateway } from "../../client/gateway-client.js";
import {
  type DeviceSigner,
  type GatewayClient,
  GatewayRequestError,
  type WebSocketConstructor,
} from "../../client/types.js";
import { TEXT_DELTAS_CAP } from "../../protocol/gateway/caps.js";
import type { HelloOk } from "../../protocol/gateway/index.js";
import type { SecretStore } from "./token-store.js";
import type { UiOutcome } from "./ui-context.js";

/** Where the connection stands, as the shell shows it. */
export type ConnectionStatus =
  | { kind: "login" }
  | { kind: "connecting"; attempt: number }
  | { kind: "ready"; hello: HelloOk }
  | { kind: "refused"; message: string }
  | { kind: "pairing"; deviceId: string; requestId: string | undefined; retryInMs: number }
  | { kind: "disconnected"; retryInMs: number; reason: string };

/** What {@link UiConnection} needs. */
export interface UiConnectionDeps {
  /** `ws(s)://host[:port]` of the gateway that served the page. */
  url: string;
  tokens: SecretStore;
  deviceTokens: SecretStore;
  /** The browser identity's signer and id; undefined connects without a device. */
  device: { id: string; signer: DeviceSigner } | undefined;
  WebSocketImpl: WebSocketConstructor;
  clientVersion: string;
  platform: string;
  onStatus(status: ConnectionStatus): void;
}

/** Backoff before reconnect attempt `attempt` (0-based): 0.5 s doubling, at most 15 s. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(15_000, 500 * 2 ** Math.min(attempt, 5));
}

/** How often a device awaiting approval asks again. */
export const PAIRING_RETRY_MS = 3_000;

/** The scopes the Control UI asks for: every page's methods (admin covers config and devices). */
export const CONTROL_UI_SCOPES = [
  "operator.admin",
  "operator.read",
  "operator.write",
  "operator.approvals",
  "operator.pairing",
];

/** What a failed connect means for the loop. */
export type ConnectFailure =
  | { kind: "retry"; reason: string }
  | { kind: "stale-device-token" }
  | { kind: "pairing"; requestId: string | undefined }
  | { kind: "refused"; message: string };

function detailsOf(err: GatewayRequestError): Record<string, unknown> {
  const details = err.details;
  return typeof details === "object" && details !== null
    ? (details as Record<string, unknown>)
    : {};
}

/** Classifies a failed connect: network trouble retries, a pairing request waits, bad auth stops. */
export function classifyConnectFailure(err: unknown): ConnectFailure {
  if (!(err instanceof GatewayRequestError)) return { kind: "retry", reason: String(err) };
  if (["UNREACHABLE", "CLOSED", "TIMEOUT", "UNAVAILABLE"].includes(err.code)) {
    return { kind: "retry", reason: err.message };
  }
  const details = detailsOf(err);
  if (err.detailCode === "DEVICE_TOKEN_INVALID") return { kind: "stale-device-token" };
  if (err.code === "NOT_PAIRED" && err.detailCode !== "DEVICE_IDENTITY_REQUIRED") {
    const requestId = typeof details.requestId === "string" ? details.requestId : undefined;
    return { kind: "pairing", requestId };
  }
  const code = err.detailCode ? ` [${err.detailCode}]` : "";
  return { kind: "refused", message: `${err.message}${code}` };
}

function outcomeOf(err: unknown): UiOutcome<never> {
  if (err instanceof GatewayRequestError) {
    return {
      ok: false,
      error: {
        code: err.code,
        message: err.message,
        ...(err.details === undefined ? {} : { details: err.details }),
      },
    };
  }
  return { ok: false, error: { code: "UNAVAILABLE", message: String(err) } };
}

/** One logical connection that survives socket drops until logged out. */
export class UiConnection {
  private client: GatewayClient | undefined;
  private generation = 0;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<(event: string, payload: unknown) => void>();

  constructor(private readonly deps: UiConnectionDeps) {}

  /** Connects with what is stored, or asks for the login form when nothing is. */
  start(): void {
    this.stop();
    void this.open(++this.generation);
  }

  /** Stores a token typed into the login form and connects with it. */
  login(token: string): void {
    this.deps.tokens.set(token);
    this.attempt = 0;
    this.start();
  }

  /** Forgets both tokens and closes the connection. */
  logout(): void {
    this.deps.tokens.clear();
    this.deps.deviceTokens.clear();
    this.start();
  }

  /** Calls a gateway method; every failure (also "not connected") is a value. */
  async request<T>(
    method: string,
    params?: Record<string, unknown>,
    options?: { expectFinal?: boolean; timeoutMs?: number },
  ): Promise<UiOutcome<T>> {
    const client = this.client;
    if (!client) return { ok: false, error: { code: "UNAVAILABLE", message: "not connected" } };
    try {
      return { ok: true, payload: await client.request<T>(method, params ?? {}, options) };
    } catch (err) {
      return outcomeOf(err);
    }
  }

  /** Adds an event listener for this and every later socket; returns its removal. */
  subscribe(listener: (event: string, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private stop(): void {
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    if (client) void client.close();
  }

  private retry(generation: number, status: ConnectionStatus, delayMs: number): void {
    if (generation !== this.generation) return;
    this.deps.onStatus(status);
    this.timer = setTimeout(() => void this.open(generation), delayMs);
  }

  private async open(generation: number): Promise<void> {
    const { deps } = this;
    const token = deps.tokens.get();
    const deviceToken = deps.device ? deps.deviceTokens.get() : undefined;
    if (!token && !deviceToken) {
      deps.onStatus({ kind: "login" });
      return;
    }
    deps.onStatus({ kind: "connecting", attempt: this.attempt });
    let client: GatewayClient;
    try {
      client = await connectGateway({
        url: deps.url,
        ...(token ? { token } : {}),
        ...(deviceToken ? { deviceToken } : {}),
        client: {
          id: "openclaw-control-ui",
          displayName: "Pincer Control UI",
          version: deps.clientVersion,
          platform: deps.platform,
          mode: "webchat",
        },
        role: "operator",
        scopes: CONTROL_UI_SCOPES,
        caps: [TEXT_DELTAS_CAP],
        timeoutMs: 15_000,
        ...(deps.device ? { device: deps.device.signer } : {}),
        WebSocketImpl: deps.WebSocketImpl,
      });
    } catch (err) {
      this.onFailure(generation, err);
      return;
    }
    if (generation !== this.generation) {
      void client.close();
      return;
    }
    this.client = client;
    this.attempt = 0;
    const issued = (client.hello.auth as { deviceToken?: unknown } | undefined)?.deviceToken;
    if (typeof issued === "string" && issued !== "") deps.deviceTokens.set(issued);
    client.onEvent("*", (event) => {
      for (const listener of [...this.listeners]) listener(event.event, event.payload);
    });
    deps.onStatus({ kind: "ready", hello: client.hello });
    const closed = await client.closed;
    if (generation !== this.generation || this.client !== client) return;
    this.client = undefined;
    const reason = closed.reason || `connection closed (${closed.code})`;
    const retryInMs = reconnectDelayMs(this.attempt++);
    this.retry(generation, { kind: "disconnected", retryInMs, reason }, retryInMs);
  }

  private onFailure(generation: number, err: unknown): void {
    if (generation !== this.generation) return;
    const failure = classifyConnectFailure(err);
    switch (failure.kind) {
      case "retry": {
        const retryInMs = reconnectDelayMs(this.attempt++);
        this.retry(
          generation,
          { kind: "disconnected", retryInMs, reason: failure.reason },
          retryInMs,
        );
        return;
      }
      case "stale-device-token":
        this.deps.deviceTokens.clear();
        this.retry(generation, { kind: "connecting", attempt: this.attempt }, 0);
        return;
      case "pairing": {
        const deviceId = this.deps.device?.id ?? "";
        const status = { kind: "pairing", deviceId, requestId: failure.requestId } as const;
        this.retry(generation, { ...status, retryInMs: PAIRING_RETRY_MS }, PAIRING_RETRY_MS);
        return;
      }
      case "refused":
        this.deps.tokens.clear();
        this.deps.onStatus({ kind: "refused", message: failure.message });
        return;
    }
  }
}
