// The JSON-RPC 2.0 client of one signal-cli HTTP daemon (`POST <baseUrl>/api/v1/rpc`): every call
// carries the account (a multi-account daemon needs it), answers are values, never exceptions. A
// failure says whether the request certainly did not arrive (connection refused: retryable), was
// refused by signal-cli (a JSON-RPC error: not retryable), or has an unknown outcome (a timeout or
// a dropped connection after it went out: uncertain).
import { connectionCauseOf } from "../../lib/connection-cause.js";
import type { SendFailure } from "../index.js";

/** What one call gave. */
export type SignalRpcResult = { ok: true; result: unknown } | { ok: false; failure: SendFailure };

/** One call: the method, its params, an optional abort signal. */
export interface SignalRpcCall {
  method: string;
  params?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** The client of an account's daemon. */
export interface SignalRpc {
  call(request: SignalRpcCall): Promise<SignalRpcResult>;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

function withTimeout(ms: number, signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** A thrown fetch error as a failure: refused / DNS certainly did not arrive, the rest may have. */
export function signalRequestFailure(err: unknown, host: string): SendFailure {
  const name = err instanceof Error ? err.name : "";
  if (name === "TimeoutError")
    return {
      message: `signal-cli did not answer in time (${host}); the message may have been sent`,
      retryable: false,
      uncertain: true,
      code: "timeout",
    };
  const cause = connectionCauseOf(err, host);
  if (cause && cause.kind !== "reset" && cause.kind !== "timeout")
    return {
      message: `signal-cli daemon unreachable: ${cause.detail}`,
      retryable: true,
      code: "connection_failed",
    };
  const text = err instanceof Error ? err.message : String(err);
  return {
    message: `signal-cli request failed after it was sent (${text}); the message may have been sent`,
    retryable: false,
    uncertain: true,
    code: cause?.code ?? "network",
  };
}

function rpcError(body: unknown): SendFailure | undefined {
  if (!body || typeof body !== "object" || !("error" in body)) return undefined;
  const error = (body as { error?: { code?: unknown; message?: unknown } }).error;
  const message = typeof error?.message === "string" ? error.message : JSON.stringify(error);
  return {
    message: `signal-cli refused it: ${message}`,
    retryable: false,
    code: typeof error?.code === "number" ? `rpc_${error.code}` : "rpc_error",
  };
}

/** Creates the client; `account` (when known) goes into every call's params. */
export function createSignalRpc(params: {
  baseUrl: string;
  account?: string;
  timeoutMs: number;
}): SignalRpc {
  const url = `${params.baseUrl}/api/v1/rpc`;
  const host = hostOf(params.baseUrl);
  let nextId = 1;
  return {
    async call(request) {
      const id = nextId++;
      const body = {
        jsonrpc: "2.0",
        id,
        method: request.method,
        params: { ...(params.account ? { account: params.account } : {}), ...request.params },
      };
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: withTimeout(params.timeoutMs, request.signal),
        });
        text = await res.text();
      } catch (err) {
        return { ok: false, failure: signalRequestFailure(err, host) };
      }
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      const refused = rpcError(parsed);
      if (refused) return { ok: false, failure: refused };
      if (!res.ok)
        return {
          ok: false,
          failure: {
            message: `signal-cli answered HTTP ${res.status}`,
            // A 5xx may have run the method; only a 503 before it ran is safe to retry.
            retryable: res.status === 503,
            ...(res.status >= 500 && res.status !== 503 ? { uncertain: true } : {}),
            code: `http_${res.status}`,
          },
        };
      if (!parsed || typeof parsed !== "object" || !("result" in parsed))
        return {
          ok: false,
          failure: {
            message: `signal-cli answered without a JSON-RPC result: ${text.slice(0, 200)}`,
            retryable: false,
            uncertain: true,
            code: "malformed",
          },
        };
      return { ok: true, result: (parsed as { result: unknown }).result };
    },
  };
}
