// The REST client of one BlueBubbles server: `<serverUrl>/api/v1/<path>?password=…` (the server's
// own auth), JSON or multipart bodies, answers as values. A refused connection certainly did not
// deliver (retryable); a timeout or a dropped connection after the request went out might have
// (uncertain); the server's own error (`status` ≥ 400 in its JSON) is not retried.
import { connectionCauseOf } from "../../lib/connection-cause.js";
import type { SendFailure } from "../index.js";
import type { BlueBubblesSettings } from "./settings.js";

/** One call's answer: the JSON `data`, or the failure. */
export type BlueBubblesResult = { ok: true; data: unknown } | { ok: false; failure: SendFailure };

/** The client of an account's server. */
export interface BlueBubblesClient {
  call(request: {
    method: "GET" | "POST";
    path: string;
    json?: unknown;
    form?: FormData;
  }): Promise<BlueBubblesResult>;
  /** Raw bytes of a GET (attachment downloads), within `maxBytes`. */
  download(path: string, maxBytes: number): Promise<Buffer>;
}

function failureOf(err: unknown, host: string): SendFailure {
  if (err instanceof Error && err.name === "TimeoutError")
    return {
      message: `BlueBubbles server did not answer in time (${host}); the message may have been sent`,
      retryable: false,
      uncertain: true,
      code: "timeout",
    };
  const cause = connectionCauseOf(err, host);
  if (cause && cause.kind !== "reset" && cause.kind !== "timeout")
    return {
      message: `BlueBubbles server unreachable: ${cause.detail}`,
      retryable: true,
      code: "connection_failed",
    };
  return {
    message: `BlueBubbles request failed after it was sent (${err instanceof Error ? err.message : String(err)}); the message may have been sent`,
    retryable: false,
    uncertain: true,
    code: cause?.code ?? "network",
  };
}

/** Creates the client. */
export function createBlueBubblesClient(
  settings: Pick<BlueBubblesSettings, "serverUrl" | "password" | "timeoutMs">,
): BlueBubblesClient {
  const host = new URL(settings.serverUrl).host;
  const urlOf = (path: string) => {
    const url = new URL(`${settings.serverUrl}/api/v1/${path.replace(/^\/+/, "")}`);
    url.searchParams.set("password", settings.password);
    return url;
  };
  return {
    async call(request) {
      let res: Response;
      let text: string;
      try {
        res = await fetch(urlOf(request.path), {
          method: request.method,
          ...(request.json !== undefined
            ? {
                headers: { "content-type": "application/json" },
                body: JSON.stringify(request.json),
              }
            : request.form
              ? { body: request.form }
              : {}),
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        text = await res.text();
      } catch (err) {
        return { ok: false, failure: failureOf(err, host) };
      }
      let body:
        | { status?: unknown; message?: unknown; error?: unknown; data?: unknown }
        | undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      const status = typeof body?.status === "number" ? body.status : res.status;
      if (!res.ok || status >= 400) {
        const detail = typeof body?.message === "string" ? body.message : text.slice(0, 200);
        return {
          ok: false,
          failure: {
            message: `BlueBubbles answered ${status}: ${detail}${status === 401 ? " (check the password)" : ""}`,
            retryable: res.status === 503 || res.status === 429,
            ...(res.status >= 500 && res.status !== 503 ? { uncertain: true } : {}),
            code: `http_${status}`,
          },
        };
      }
      return { ok: true, data: body?.data };
    },
    async download(path, maxBytes) {
      const res = await fetch(urlOf(path), { signal: AbortSignal.timeout(settings.timeoutMs) });
      if (!res.ok) throw new Error(`attachment download answered HTTP ${res.status}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      if (bytes.length > maxBytes) throw new Error(`${bytes.length} bytes, over the media cap`);
      return bytes;
    },
  };
}
