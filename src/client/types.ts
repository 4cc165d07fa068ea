// Types of the gateway client: the WebSocket surface it needs (ws or a browser's), options, events
// and the one error type every failure is reported with. No Node-only imports here.
import type { HelloOk } from "../protocol/gateway/index.js";

/** The part of a WebSocket the client uses; both `ws` and browsers' WebSocket provide it. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "error", listener: (event: { message?: string }) => void): void;
  addEventListener(
    type: "close",
    listener: (event: { code: number; reason: string }) => void,
  ): void;
}

/** A WebSocket constructor (`ws`'s WebSocket, or `globalThis.WebSocket` in a browser). */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** Codes of failures detected on this side (the server's codes are INVALID_REQUEST, FORBIDDEN, …). */
export type ClientErrorCode =
  | "UNREACHABLE"
  | "TIMEOUT"
  | "CLOSED"
  | "BAD_FRAME"
  | "DEVICE_SIGN_FAILED";

/** The error a request or the handshake rejects with: the server's `{code, message, details}` or a client code. */
export class GatewayRequestError extends Error {
  readonly code: string;
  readonly details: unknown;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  /** The method that failed (`connect` for the handshake). */
  readonly method: string;

  constructor(params: {
    code: string;
    message: string;
    method: string;
    details?: unknown;
    retryable?: boolean;
    retryAfterMs?: number;
  }) {
    super(params.message);
    this.name = "GatewayRequestError";
    this.code = params.code;
    this.method = params.method;
    this.details = params.details;
    this.retryable = params.retryable ?? false;
    this.retryAfterMs = params.retryAfterMs;
  }

  /** `details.code` when the server sent one (e.g. AUTH_TOKEN_MISMATCH, UNKNOWN_AGENT_ID). */
  get detailCode(): string | undefined {
    const details = this.details as { code?: unknown } | undefined;
    return typeof details?.code === "string" ? details.code : undefined;
  }
}

/** True for errors raised by the gateway client. */
export function isGatewayRequestError(err: unknown): err is GatewayRequestError {
  return err instanceof GatewayRequestError;
}

/** `client` of the connect params. */
export interface GatewayClientInfo {
  id: string;
  version: string;
  platform: string;
  mode: string;
  displayName?: string;
  instanceId?: string;
  deviceFamily?: string;
}

/** What a device signer receives: the challenge nonce and the fields the signed string binds. */
export interface DeviceSignInput {
  nonce: string;
  client: GatewayClientInfo;
  role: string;
  scopes: readonly string[];
  /** `auth.token ?? auth.deviceToken ?? ""`, as the server rebuilds it. */
  token: string;
}

/** The `device` block of connect params. */
export interface DeviceBlock {
  id: string;
  publicKey: string;
  signature: string;
  signedAt: number;
  nonce?: string;
}

/** Signs the connect challenge (`deviceSigner` in ./device.ts for Node; the browser's WebCrypto one
 *  answers with a promise, which the handshake awaits). */
export type DeviceSigner = (input: DeviceSignInput) => DeviceBlock | Promise<DeviceBlock>;

/** One event as delivered to handlers; `gap` is synthesized when `seq` skips. */
export interface GatewayEvent {
  event: string;
  payload: unknown;
  seq?: number;
  stateVersion?: { presence: number; health: number };
}

/** Payload of the synthetic `gap` event: the seq expected and the one received. */
export interface GapPayload {
  expected: number;
  received: number;
}

/** Options of `connectGateway`. */
export interface ConnectGatewayOptions {
  /** `ws://host:port` (or `wss://`). */
  url: string;
  token?: string;
  password?: string;
  deviceToken?: string;
  client: GatewayClientInfo;
  /** Default `operator`. */
  role?: "operator" | "node";
  /** Default: the server's default (operator.read + operator.write). */
  scopes?: string[];
  /** Default 3. */
  minProtocol?: number;
  /** Default 4. */
  maxProtocol?: number;
  /**
   * Connect capabilities (`caps`), e.g. `text-deltas` (chat deltas carry only the added text; rebuild
   * it with `nextChatText`). The server lists the ones it knows in hello-ok `features.capabilities`.
   */
  caps?: string[];
  /** Commands a node declares (`role: "node"`): the ones `node.invoke` may ask it to run. */
  commands?: string[];
  /** Bound on open + challenge + hello, and the default bound of each request. */
  timeoutMs: number;
  /** Signs the challenge with a device identity (optional). */
  device?: DeviceSigner;
  /** Default: `ws`'s WebSocket, loaded on demand. */
  WebSocketImpl?: WebSocketConstructor;
  /** Called when an event handler throws (default: console.error). */
  onHandlerError?: (err: unknown, event: GatewayEvent) => void;
}

/** Options of one request. */
export interface RequestOptions {
  /** Wait past an `{status:"accepted"}` ack for the final response on the same id (`agent`). */
  expectFinal?: boolean;
  /** Default: the connect `timeoutMs`; 0 waits without bound. */
  timeoutMs?: number;
  /** Called with the ack payload when `expectFinal` skips it. */
  onAccepted?: (payload: unknown) => void;
}

/** How the socket closed. */
export interface CloseInfo {
  code: number;
  reason: string;
}

/** A connected client: hello-ok, requests, events, close. */
export interface GatewayClient {
  readonly hello: HelloOk;
  /** Sends a request; resolves with the response payload, rejects with GatewayRequestError. */
  request<T = unknown>(method: string, params?: unknown, options?: RequestOptions): Promise<T>;
  /** Subscribes to one event name or `*` (every event, `gap` included); returns the unsubscribe. */
  onEvent(name: string, handler: (event: GatewayEvent) => void): () => void;
  /** Resolves when the socket is closed, by either side. */
  readonly closed: Promise<CloseInfo>;
  /** Closes the socket (pending requests reject with CLOSED); resolves once closed. */
  close(): Promise<void>;
}
