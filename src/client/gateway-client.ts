// The gateway WebSocket client shared by the CLI, the UI and tests: challenge → connect → hello-ok,
// requests correlated by id (with `expectFinal` for ack-then-final methods), typed errors, event
// subscriptions with a synthetic `gap` event when `seq` skips. All state lives in one connection.
import type { HelloOk } from "../protocol/gateway/index.js";
import {
  type CloseInfo,
  type ConnectGatewayOptions,
  type GatewayClient,
  type GatewayEvent,
  GatewayRequestError,
  type RequestOptions,
  type WebSocketConstructor,
  type WebSocketLike,
} from "./types.js";

const OPEN = 1;

interface Pending {
  method: string;
  expectFinal: boolean;
  onAccepted: ((payload: unknown) => void) | undefined;
  resolve: (payload: unknown) => void;
  reject: (err: GatewayRequestError) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

interface Frame {
  type?: unknown;
  id?: unknown;
  ok?: unknown;
  payload?: unknown;
  error?: { code?: unknown; message?: unknown; details?: unknown; retryable?: unknown };
  event?: unknown;
  seq?: unknown;
  stateVersion?: GatewayEvent["stateVersion"];
}

async function defaultWebSocket(): Promise<WebSocketConstructor> {
  const mod = await import("ws");
  return mod.WebSocket;
}

function clientError(code: string, message: string, method: string): GatewayRequestError {
  return new GatewayRequestError({ code, message, method });
}

function serverError(frame: Frame, method: string): GatewayRequestError {
  const error = frame.error ?? {};
  const retryAfterMs = (error as { retryAfterMs?: unknown }).retryAfterMs;
  return new GatewayRequestError({
    code: typeof error.code === "string" ? error.code : "UNAVAILABLE",
    message: typeof error.message === "string" ? error.message : `${method} failed`,
    method,
    details: error.details,
    retryable: error.retryable === true,
    ...(typeof retryAfterMs === "number" ? { retryAfterMs } : {}),
  });
}

function textOf(data: unknown): string {
  if (typeof data === "string") return data;
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (data instanceof Uint8Array) return new TextDecoder().decode(data);
  return String(data);
}

/** Opens a socket, answers the challenge with `connect` and resolves once hello-ok arrives. */
export async function connectGateway(options: ConnectGatewayOptions): Promise<GatewayClient> {
  const Impl = options.WebSocketImpl ?? (await defaultWebSocket());
  let ws: WebSocketLike;
  try {
    ws = new Impl(options.url);
  } catch (err) {
    // A malformed URL throws synchronously: report it like any other unreachable gateway.
    throw clientError(
      "UNREACHABLE",
      `invalid gateway url ${options.url}: ${String(err)}`,
      "connect",
    );
  }
  return new Promise<GatewayClient>((resolve, reject) => {
    const pending = new Map<string, Pending>();
    const handlers = new Map<string, Set<(event: GatewayEvent) => void>>();
    let nextId = 0;
    let opened = false;
    let settled = false;
    let lastSeq: number | undefined;
    let socketError: string | undefined;
    let resolveClosed: (info: CloseInfo) => void = () => {};
    const closed = new Promise<CloseInfo>((done) => {
      resolveClosed = done;
    });

    const failHandshake = (err: GatewayRequestError) => {
      if (settled) return;
      settled = true;
      clearTimeout(handshakeTimer);
      reject(err);
      if (ws.readyState <= OPEN) ws.close(1000, "handshake failed");
    };
    const handshakeTimer = setTimeout(
      () =>
        failHandshake(
          clientError(
            "TIMEOUT",
            `no hello from the gateway at ${options.url} within ${options.timeoutMs} ms`,
            "connect",
          ),
        ),
      options.timeoutMs,
    );

    const dispatch = (event: GatewayEvent) => {
      const targets = [...(handlers.get(event.event) ?? []), ...(handlers.get("*") ?? [])];
      for (const handler of targets) {
        try {
          handler(event);
        } catch (err) {
          // A throwing handler must not break the connection or the other handlers: report it.
          if (options.onHandlerError) options.onHandlerError(err, event);
          else console.error(`gateway client: ${event.event} handler failed:`, err);
        }
      }
    };

    const send = (method: string, params: unknown, requestOptions: RequestOptions = {}) =>
      new Promise<unknown>((done, fail) => {
        if (ws.readyState !== OPEN) {
          fail(clientError("CLOSED", `connection closed; cannot send ${method}`, method));
          return;
        }
        const id = `c${++nextId}`;
        const timeoutMs = requestOptions.timeoutMs ?? options.timeoutMs;
        const entry: Pending = {
          method,
          expectFinal: requestOptions.expectFinal === true,
          onAccepted: requestOptions.onAccepted,
          resolve: done,
          reject: fail,
          timer: undefined,
        };
        if (timeoutMs > 0) {
          entry.timer = setTimeout(() => {
            pending.delete(id);
            fail(clientError("TIMEOUT", `${method}: no response within ${timeoutMs} ms`, method));
          }, timeoutMs);
        }
        pending.set(id, entry);
        ws.send(
          JSON.stringify({ type: "req", id, method, ...(params === undefined ? {} : { params }) }),
        );
      });

    const onResponse = (frame: Frame) => {
      const id = typeof frame.id === "string" ? frame.id : "";
      const entry = pending.get(id);
      if (!entry) return;
      const payload = frame.payload as { status?: unknown } | undefined;
      if (frame.ok === true && entry.expectFinal && payload?.status === "accepted") {
        entry.onAccepted?.(frame.payload);
        return;
      }
      pending.delete(id);
      if (entry.timer) clearTimeout(entry.timer);
      // Seq counting starts at hello-ok, before any event frame that follows it in the same read
      // is dispatched (the promise below resolves a microtask later).
      if (entry.method === "connect" && frame.ok === true) lastSeq = 0;
      if (frame.ok === true) entry.resolve(frame.payload);
      else entry.reject(serverError(frame, entry.method));
    };

    const onEventFrame = (frame: Frame) => {
      const name = String(frame.event);
      if (name === "connect.challenge") {
        answerChallenge(frame.payload);
        return;
      }
      const event: GatewayEvent = { event: name, payload: frame.payload };
      if (typeof frame.seq === "number") {
        event.seq = frame.seq;
        if (lastSeq !== undefined && frame.seq !== lastSeq + 1) {
          dispatch({ event: "gap", payload: { expected: lastSeq + 1, received: frame.seq } });
        }
        lastSeq = frame.seq;
      }
      if (frame.stateVersion) event.stateVersion = frame.stateVersion;
      dispatch(event);
    };

    const client: Omit<GatewayClient, "hello"> = {
      request: <T>(method: string, params?: unknown, requestOptions?: RequestOptions) =>
        send(method, params, requestOptions) as Promise<T>,
      onEvent: (name, handler) => {
        const set = handlers.get(name) ?? new Set();
        set.add(handler);
        handlers.set(name, set);
        return () => {
          set.delete(handler);
        };
      },
      closed,
      close: async () => {
        if (ws.readyState <= OPEN) ws.close(1000, "client closed");
        await closed;
      },
    };

    let challengeAnswered = false;
    const answerChallenge = (payload: unknown) => {
      if (settled || challengeAnswered) return;
      challengeAnswered = true;
      const nonce = (payload as { nonce?: unknown } | undefined)?.nonce;
      const role = options.role ?? "operator";
      const auth = {
        ...(options.token ? { token: options.token } : {}),
        ...(options.password ? { password: options.password } : {}),
        ...(options.deviceToken ? { deviceToken: options.deviceToken } : {}),
      };
      const base = {
        minProtocol: options.minProtocol ?? 3,
        maxProtocol: options.maxProtocol ?? 4,
        client: options.client,
        role,
        ...(options.caps ? { caps: options.caps } : {}),
        ...(options.commands ? { commands: options.commands } : {}),
        ...(options.scopes ? { scopes: options.scopes } : {}),
        ...(Object.keys(auth).length > 0 ? { auth } : {}),
      };
      // A signer may be asynchronous (WebCrypto in the browser): the connect waits for its proof.
      const device =
        options.device && typeof nonce === "string"
          ? options.device({
              nonce,
              client: options.client,
              role,
              scopes: options.scopes ?? [],
              token: options.token ?? options.deviceToken ?? "",
            })
          : undefined;
      Promise.resolve(device)
        .then((block) =>
          send("connect", block ? { ...base, device: block } : base, { timeoutMs: 0 }),
        )
        .then(
          (hello) => {
            if (settled) return;
            settled = true;
            clearTimeout(handshakeTimer);
            resolve({ ...client, hello: hello as HelloOk });
          },
          (err: unknown) =>
            failHandshake(
              err instanceof GatewayRequestError
                ? err
                : clientError(
                    "DEVICE_SIGN_FAILED",
                    `device signing failed: ${String(err)}`,
                    "connect",
                  ),
            ),
        );
    };

    ws.addEventListener("open", () => {
      opened = true;
    });
    ws.addEventListener("error", (event) => {
      socketError = event.message ?? socketError;
    });
    ws.addEventListener("message", (event) => {
      let frame: Frame;
      try {
        frame = JSON.parse(textOf(event.data)) as Frame;
      } catch (err) {
        // Not JSON: the peer is not a gateway; drop the connection rather than guess.
        failHandshake(clientError("BAD_FRAME", `not a gateway frame: ${String(err)}`, "connect"));
        if (ws.readyState <= OPEN) ws.close(1002, "bad frame");
        return;
      }
      if (frame.type === "res") onResponse(frame);
      else if (frame.type === "event") onEventFrame(frame);
    });
    ws.addEventListener("close", (event) => {
      clearTimeout(handshakeTimer);
      const reason = opened
        ? `connection closed (${event.code}${event.reason ? ` ${event.reason}` : ""})`
        : `gateway not reachable at ${options.url}${socketError ? `: ${socketError}` : ""}`;
      const code = opened ? "CLOSED" : "UNREACHABLE";
      for (const [id, entry] of pending) {
        pending.delete(id);
        if (entry.timer) clearTimeout(entry.timer);
        entry.reject(clientError(code, `${entry.method}: ${reason}`, entry.method));
      }
      failHandshake(clientError(code, reason, "connect"));
      resolveClosed({ code: event.code, reason: event.reason });
    });
  });
}
