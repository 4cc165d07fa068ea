// The gateway protocol over the browser's WebSocket: wait for `connect.challenge`, send `connect`
// (client webchat/webchat, protocol 3..4, token auth, the `text-deltas` cap), then requests
// matched by id and events. A refused connect stops (the token is wrong); a dropped socket
// reconnects with capped backoff.
import { TEXT_DELTAS_CAP } from "../../protocol/gateway/caps.js";
import type { HelloOk } from "../../protocol/gateway/method-schemas.js";
import type { ConnectParams, ErrorShape } from "../../protocol/gateway/schema.js";

/** The outcome of one request: the payload, or the gateway's error as a value. */
export type RequestOutcome<T = unknown> =
  | { ok: true; payload: T }
  | { ok: false; error: ErrorShape };

/** Where the connection stands, as the page shows it. */
export type SocketStatus =
  | { kind: "connecting"; attempt: number }
  | { kind: "ready"; hello: HelloOk }
  | { kind: "refused"; error: ErrorShape }
  | { kind: "disconnected"; retryInMs: number; reason: string };

/** Inputs of {@link GatewaySocket}. */
export interface GatewaySocketOptions {
  /** `ws://host:port` of the gateway (the page's own origin). */
  url: string;
  token: string;
  clientVersion: string;
  onStatus(status: SocketStatus): void;
  onEvent(event: string, payload: unknown): void;
}

/** Backoff before reconnect attempt `attempt` (0-based): 0.5 s doubling, at most 15 s. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(15_000, 500 * 2 ** Math.min(attempt, 5));
}

const DISCONNECTED: ErrorShape = { code: "UNAVAILABLE", message: "disconnected from the gateway" };

type Frame = {
  type?: unknown;
  id?: unknown;
  ok?: unknown;
  payload?: unknown;
  error?: ErrorShape;
  event?: unknown;
};

/** A random id for requests and idempotency keys (works outside secure contexts too). */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function connectParams(options: GatewaySocketOptions): ConnectParams {
  return {
    minProtocol: 3,
    maxProtocol: 4,
    client: {
      id: "webchat",
      displayName: "Pincer WebChat",
      version: options.clientVersion,
      platform: navigator.platform || "web",
      mode: "webchat",
    },
    role: "operator",
    // Chat deltas carry only the added text (the app rebuilds it), and no agent assistant events.
    caps: [TEXT_DELTAS_CAP],
    scopes: ["operator.read", "operator.write"],
    auth: { token: options.token },
    locale: navigator.language,
    userAgent: navigator.userAgent,
  };
}

/** One logical connection to the gateway that survives socket drops until closed. */
export class GatewaySocket {
  private ws: WebSocket | undefined;
  private ready = false;
  private stopped = false;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly pending = new Map<string, (outcome: RequestOutcome) => void>();

  constructor(private readonly options: GatewaySocketOptions) {}

  /** Opens the first socket. */
  start(): void {
    this.open();
  }

  /** Sends a request; resolves with its response, or an UNAVAILABLE error when not connected. */
  request<T = unknown>(method: string, params?: unknown): Promise<RequestOutcome<T>> {
    const ws = this.ws;
    if (!ws || !this.ready || ws.readyState !== WebSocket.OPEN) {
      return Promise.resolve({ ok: false, error: DISCONNECTED });
    }
    return this.send<T>(ws, method, params);
  }

  /** Closes for good (logout): no reconnect, pending requests fail. */
  close(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.ws?.close(1000, "closed by user");
    this.failPending();
  }

  private send<T>(ws: WebSocket, method: string, params?: unknown): Promise<RequestOutcome<T>> {
    const id = randomId();
    return new Promise((resolve) => {
      this.pending.set(id, resolve as (outcome: RequestOutcome) => void);
      ws.send(
        JSON.stringify({ type: "req", id, method, ...(params === undefined ? {} : { params }) }),
      );
    });
  }

  private open(): void {
    if (this.stopped) return;
    this.options.onStatus({ kind: "connecting", attempt: this.attempt });
    const ws = new WebSocket(this.options.url);
    this.ws = ws;
    ws.addEventListener("message", (message) => {
      const frame = this.parse(message.data);
      if (frame?.type === "event" && frame.event === "connect.challenge" && !this.ready) {
        void this.handshake(ws);
      } else if (frame?.type === "event" && typeof frame.event === "string") {
        if (this.ready) this.options.onEvent(frame.event, frame.payload);
      } else if (frame?.type === "res" && typeof frame.id === "string") {
        const settle = this.pending.get(frame.id);
        this.pending.delete(frame.id);
        settle?.(
          frame.ok === true
            ? { ok: true, payload: frame.payload }
            : { ok: false, error: frame.error ?? { code: "UNAVAILABLE", message: "no error" } },
        );
      }
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ready = false;
      this.failPending();
      if (this.stopped) return;
      const retryInMs = reconnectDelayMs(this.attempt++);
      const reason = event.reason || `connection closed (${event.code})`;
      this.options.onStatus({ kind: "disconnected", retryInMs, reason });
      this.retryTimer = setTimeout(() => this.open(), retryInMs);
    });
  }

  /** Sends `connect`. A refusal is reported and ends the reconnect loop (the token is wrong). */
  private async handshake(ws: WebSocket): Promise<void> {
    const outcome = await this.send<HelloOk>(ws, "connect", connectParams(this.options));
    if (!outcome.ok) {
      if (outcome.error !== DISCONNECTED) {
        this.stopped = true;
        this.options.onStatus({ kind: "refused", error: outcome.error });
      }
      return;
    }
    this.ready = true;
    this.attempt = 0;
    this.options.onStatus({ kind: "ready", hello: outcome.payload });
  }

  private parse(data: unknown): Frame | undefined {
    if (typeof data !== "string") return undefined;
    try {
      const frame: unknown = JSON.parse(data);
      return typeof frame === "object" && frame !== null ? (frame as Frame) : undefined;
    } catch (err) {
      console.warn("webchat: unparsable frame from the gateway", err);
      return undefined;
    }
  }

  private failPending(): void {
    const settles = [...this.pending.values()];
    this.pending.clear();
    for (const settle of settles) settle({ ok: false, error: DISCONNECTED });
  }
}
