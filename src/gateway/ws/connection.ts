// One WebSocket client: connect.challenge first, then the handshake (the first request must be
// `connect`), then request dispatch with scope checks and params validation. Events carry a
// per-connection seq (appended to an event frame serialized once for all clients of its variant:
// a `text-deltas` connection gets its own chat deltas); chat deltas are skipped for a client whose
// outgoing buffer is above the slow-client bound, and a client whose buffer passes
// maxBufferedBytes is dropped (1013).
import { randomUUID } from "node:crypto";
import type { Duplex } from "node:stream";
import type { RawData, WebSocket } from "ws";
import {
  type ConnectParams,
  ErrorCodes,
  GATEWAY_SCHEMAS,
  type GatewayErrorShape,
  gatewayError,
  hasScope,
  missingScopeError,
  TEXT_DELTAS_CAP,
} from "../../protocol/gateway/index.js";
import type { AuthRateLimiter } from "../auth/failed-auth-limit.js";
import type { GatewayCore } from "../core.js";
import {
  EVENT_SCOPES,
  type EventFrame,
  NODE_ROLE_EVENTS,
  selectEventFrame,
} from "../events/event-fanout.js";
import { TextDeltaCursor } from "../events/text-deltas.js";
import type { ClientInfo, MethodResult } from "../methods/method.js";
import { type BoundMethod, NODE_ROLE_METHODS, requiredScope } from "../methods/method-table.js";
import {
  CLOSE_POLICY_VIOLATION,
  checkRequestFrame,
  type FrameRefusal,
  type RequestFrameIn,
  truncateCloseReason,
  UNKNOWN_REQUEST_ID,
} from "./frame-check.js";
import { isUtf8Text, meterFrames, rawDataLength } from "./frame-meter.js";
import {
  type DeviceAuthority,
  type HandshakeAccepted,
  MAX_BUFFERED_BYTES,
  MAX_PAYLOAD_BYTES,
  MAX_PREAUTH_PAYLOAD_BYTES,
  runHandshake,
  type SharedAuth,
} from "./handshake.js";
import { formatIssues, validateSchema } from "./schema-issues.js";
import { BATCH_FLUSH_BYTES, TickWriteBatch } from "./write-batch.js";

/** What a connection needs from its server. */
export interface ConnectionHost {
  core: GatewayCore;
  /** The method table bound to its dependencies (bindMethods). */
  methods: ReadonlyMap<string, BoundMethod>;
  auth: () => SharedAuth;
  limiter: AuthRateLimiter;
  authority?: DeviceAuthority;
  handshakeTimeoutMs: number;
  maxBufferedBytes?: number;
  hello: (conn: GatewayConnection, accepted: HandshakeAccepted, params: ConnectParams) => unknown;
  onReady: (conn: GatewayConnection, params: ConnectParams) => void;
  onClose: (conn: GatewayConnection) => void;
}

/** A client connection and its state machine. */
export class GatewayConnection {
  readonly connId = randomUUID();
  readonly nonce = randomUUID();
  state: "pending" | "connecting" | "ready" | "closed" = "pending";
  client: ClientInfo | undefined;
  /** How the handshake authenticated this client (shared secret, mode none, or a device token). */
  private authMethod: HandshakeAccepted["method"] | undefined;
  private seq = 0;
  /** Set when the client declared the `text-deltas` cap: its position in each run's chat events. */
  private textDeltas: TextDeltaCursor | undefined;
  /** Requests being handled now; a connection whose auth expired closes once they are answered. */
  private inFlight = 0;
  /** Why the shared secret this connection authenticated with stopped being valid (a live reload). */
  private authExpired: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly challengeTs: number;

  readonly ws: WebSocket;
  readonly remoteAddress: string;
  readonly isLoopback: boolean;
  private readonly host: ConnectionHost;
  /** This loop turn's outgoing frames, written to the socket together (write-batch.ts). */
  private readonly writes: TickWriteBatch;

  constructor(params: {
    ws: WebSocket;
    /** The upgraded socket under `ws`: its frames are metered (frame-meter.ts). */
    socket: Duplex;
    remoteAddress: string;
    isLoopback: boolean;
    host: ConnectionHost;
  }) {
    const { ws, host } = params;
    this.ws = ws;
    this.remoteAddress = params.remoteAddress;
    this.isLoopback = params.isLoopback;
    this.host = host;
    this.writes = new TickWriteBatch(params.socket);
    this.challengeTs = host.core.now();
    meterFrames({
      socket: params.socket,
      limit: () => (this.state === "ready" ? MAX_PAYLOAD_BYTES : MAX_PREAUTH_PAYLOAD_BYTES),
      wsMaxPayload: MAX_PAYLOAD_BYTES,
      onRefuse: ({ code, reason }) => {
        host.core.logger.warn(
          { connId: this.connId, remote: this.remoteAddress, code, reason },
          "closing connection: unreadable frame",
        );
        this.close(code, reason);
      },
    });
    ws.on("message", (data, isBinary) => this.onMessage(data, isBinary));
    ws.on("close", () => this.onClosed());
    ws.on("error", (err) =>
      host.core.logger.debug({ connId: this.connId, error: String(err) }, "ws error"),
    );
    this.timer = setTimeout(() => this.close(1008, "handshake timeout"), host.handshakeTimeoutMs);
    this.sendFrame({
      type: "event",
      event: "connect.challenge",
      payload: { nonce: this.nonce, ts: this.challengeTs },
    });
  }

  /**
   * Sends this connection's variant of an event frame (events/event-fanout.ts), serialized once
   * for all its recipients, with this connection's next seq. A droppable event (a chat delta) is
   * skipped while the outgoing buffer is above `slowClientBytes`; returns false when nothing was sent.
   */
  sendEventFrame(frame: EventFrame, slowClientBytes: number): boolean {
    if (this.state !== "ready") return false;
    const needed = EVENT_SCOPES.get(frame.event);
    const client = this.client;
    if (needed && !(client?.role === "operator" && hasScope(client.scopes, needed))) return false;
    // A node host gets only what it acts on (invokes, ticks, shutdown): no chats, runs or presence.
    if (client?.role === "node" && !NODE_ROLE_EVENTS.has(frame.event)) return false;
    const slow = frame.droppable && this.ws.bufferedAmount > slowClientBytes;
    const chosen = selectEventFrame(frame, { cursor: this.textDeltas, slow });
    return chosen !== undefined && this.sendText(chosen.withSeq(++this.seq));
  }

  /**
   * The shared secret changed (live reload): a connection that authenticated with it (token,
   * password or mode none) takes no new requests and closes once its in-flight ones are answered.
   */
  expireSharedAuth(reason: string): void {
    if (this.state !== "ready" || this.authMethod === "device") return;
    this.authExpired = reason;
    if (this.inFlight === 0) this.close(1008, reason);
  }

  /** Closes the socket (idempotent). */
  close(code: number, reason: string): void {
    if (this.state === "closed") return;
    this.state = "closed";
    clearTimeout(this.timer);
    this.writes.flush();
    try {
      this.ws.close(code, truncateCloseReason(reason));
    } catch (err) {
      this.host.core.logger.debug({ connId: this.connId, error: String(err) }, "close failed");
      this.ws.terminate();
    }
  }

  private sendFrame(frame: Record<string, unknown>): void {
    this.sendText(JSON.stringify(frame));
  }

  private sendText(text: string): boolean {
    if (this.ws.readyState !== this.ws.OPEN) return false;
    this.writes.hold();
    this.ws.send(text);
    if (this.ws.bufferedAmount > BATCH_FLUSH_BYTES) this.writes.flush();
    const bound = this.host.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
    if (this.ws.bufferedAmount > bound) {
      this.host.core.logger.warn(
        { connId: this.connId, buffered: this.ws.bufferedAmount },
        "dropping slow client",
      );
      this.close(1013, "slow consumer");
      this.ws.terminate();
    }
    return true;
  }

  private respond(id: string, result: MethodResult): void {
    if (result.ok) this.sendFrame({ type: "res", id, ok: true, payload: result.payload });
    else this.sendFrame({ type: "res", id, ok: false, error: result.error });
  }

  private refuse(id: string | undefined, error: GatewayErrorShape, code: number): void {
    if (id) this.respond(id, { ok: false, error });
    this.close(code, error.message);
  }

  private onClosed(): void {
    this.state = "closed";
    this.writes.flush();
    clearTimeout(this.timer);
    this.host.onClose(this);
  }

  /**
   * A frame that is not a valid request. After `connect` it costs only itself: an error frame on
   * its id (OpenClaw's "invalid" when none can be recovered) and the connection stays open,
   * so runs in flight keep streaming. Before `connect` it closes with a reason (1003 binary, 1007
   * not JSON, else 1008), after an error frame when the id is known, as OpenClaw does.
   */
  private refuseFrame(refusal: FrameRefusal): void {
    const error = gatewayError(ErrorCodes.INVALID_REQUEST, refusal.message);
    if (this.state === "ready") {
      this.respond(refusal.id ?? UNKNOWN_REQUEST_ID, { ok: false, error });
      return;
    }
    this.host.core.logger.warn(
      {
        connId: this.connId,
        remote: this.remoteAddress,
        state: this.state,
        error: refusal.message,
      },
      "closing connection: invalid frame",
    );
    this.refuse(refusal.id, error, refusal.closeCode);
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.state === "closed") return;
    const limit = this.state === "ready" ? MAX_PAYLOAD_BYTES : MAX_PREAUTH_PAYLOAD_BYTES;
    if (rawDataLength(data) > limit) {
      this.close(1009, `frame too large: limit ${limit} bytes`);
      return;
    }
    if (!isBinary && !isUtf8Text(data)) {
      this.close(1007, "invalid UTF-8 in a text frame");
      return;
    }
    const verdict = checkRequestFrame(data, isBinary);
    if (!verdict.ok) {
      this.refuseFrame(verdict);
      return;
    }
    const request = verdict.request;
    if (this.state === "ready") {
      this.dispatch(request).catch((err: unknown) => {
        this.host.core.logger.error(
          { method: request.method, error: String(err) },
          "dispatch failed",
        );
      });
      return;
    }
    if (this.state === "connecting") {
      this.respond(request.id, {
        ok: false,
        error: gatewayError(ErrorCodes.INVALID_REQUEST, "connect in progress"),
      });
      return;
    }
    if (request.method !== "connect") {
      this.refuse(
        request.id,
        gatewayError(
          ErrorCodes.INVALID_REQUEST,
          "invalid handshake: first request must be connect",
        ),
        CLOSE_POLICY_VIOLATION,
      );
      return;
    }
    this.state = "connecting";
    this.connect(request.id, request.params).catch((err: unknown) => {
      this.host.core.logger.error({ connId: this.connId, error: String(err) }, "handshake failed");
      this.refuse(
        request.id,
        gatewayError(ErrorCodes.UNAVAILABLE, "internal error during handshake"),
        1011,
      );
    });
  }

  private async connect(id: string, raw: unknown): Promise<void> {
    const issues = validateSchema(GATEWAY_SCHEMAS.connect, raw ?? {});
    if (issues.length > 0) {
      this.refuse(
        id,
        gatewayError(ErrorCodes.INVALID_REQUEST, `invalid connect params: ${formatIssues(issues)}`),
        1008,
      );
      return;
    }
    const params = raw as ConnectParams;
    const verdict = await runHandshake({
      params,
      auth: this.host.auth(),
      challenge: { nonce: this.nonce, ts: this.challengeTs },
      remoteAddress: this.remoteAddress,
      isLoopback: this.isLoopback,
      limiter: this.host.limiter,
      ...(this.host.authority ? { authority: this.host.authority } : {}),
    });
    if (this.state === "closed") return;
    if (!verdict.ok) {
      this.host.core.logger.warn(
        { remote: this.remoteAddress, code: verdict.error.details?.code ?? verdict.error.code },
        "connect refused",
      );
      this.refuse(id, verdict.error, verdict.closeCode);
      return;
    }
    clearTimeout(this.timer);
    this.authMethod = verdict.method;
    if (params.caps?.includes(TEXT_DELTAS_CAP)) this.textDeltas = new TextDeltaCursor();
    this.client = {
      connId: this.connId,
      role: verdict.role,
      scopes: verdict.scopes,
      clientId: params.client.id,
      mode: params.client.mode,
      remoteAddress: this.remoteAddress,
      ...(verdict.deviceId ? { deviceId: verdict.deviceId } : {}),
    };
    this.respond(id, { ok: true, payload: this.host.hello(this, verdict, params) });
    this.state = "ready";
    this.host.onReady(this, params);
  }

  private async dispatch(request: RequestFrameIn): Promise<void> {
    if (this.authExpired) {
      this.respond(request.id, {
        ok: false,
        error: gatewayError(ErrorCodes.INVALID_REQUEST, this.authExpired),
      });
      return;
    }
    this.inFlight++;
    try {
      await this.handle(request);
    } finally {
      this.inFlight--;
      if (this.authExpired && this.inFlight === 0) this.close(1008, this.authExpired);
    }
  }

  private async handle(request: RequestFrameIn): Promise<void> {
    const { core, methods } = this.host;
    const client = this.client as ClientInfo;
    const { method } = request;
    if (method === "connect") {
      this.respond(request.id, {
        ok: false,
        error: gatewayError(ErrorCodes.INVALID_REQUEST, "already connected"),
      });
      return;
    }
    const needed = requiredScope(method, methods.get(method)?.method.scope);
    const nodeCall = client.role === "node" && NODE_ROLE_METHODS.has(method);
    if (!nodeCall && (client.role !== "operator" || !hasScope(client.scopes, needed))) {
      this.respond(request.id, { ok: false, error: missingScopeError(needed) });
      return;
    }
    const bound = methods.get(method);
    if (!bound) {
      this.respond(request.id, {
        ok: false,
        error: gatewayError(ErrorCodes.INVALID_REQUEST, `unknown method: ${method}`),
      });
      return;
    }
    const params = request.params ?? {};
    const issues = validateSchema(bound.method.params, params);
    if (issues.length > 0) {
      const error = gatewayError(
        ErrorCodes.INVALID_REQUEST,
        `invalid ${method} params: ${formatIssues(issues)}`,
      );
      this.respond(request.id, { ok: false, error });
      return;
    }
    let result: MethodResult;
    try {
      const ack = (payload: unknown) => this.respond(request.id, { ok: true, payload });
      result = await bound.handle({ method, params, client, ack });
    } catch (err) {
      core.logger.error(
        {
          method,
          connId: this.connId,
          error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        },
        "method failed",
      );
      result = {
        ok: false,
        error: gatewayError(ErrorCodes.UNAVAILABLE, `internal error in ${method}`, {
          retryable: true,
        }),
      };
    }
    this.respond(request.id, result);
  }
}
