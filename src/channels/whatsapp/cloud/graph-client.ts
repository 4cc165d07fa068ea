// The Graph API calls of one Cloud API account: JSON or multipart requests under
// `{apiRoot}/{apiVersion}` with the bearer token, each bounded by the account's timeout, answering
// values (never throwing): the JSON body, or a `SendFailure` from `graph-errors.ts`. Also the
// authenticated download of a media URL, capped in size.
import type { SendFailure } from "../../index.js";
import { graphFailure, requestFailure } from "./graph-errors.js";
import type { CloudAccountSettings } from "./settings.js";

/** A Graph answer: its JSON body, or why it failed. */
export type GraphResult =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; failure: SendFailure };

/** One Graph request (`path` is relative to `{apiRoot}/{apiVersion}`). */
export interface GraphRequest {
  method: "GET" | "POST";
  path: string;
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal;
}

/** The Graph client of one account. */
export interface GraphClient {
  call(request: GraphRequest): Promise<GraphResult>;
  /** Bytes of a media URL (bearer auth), refused past `maxBytes`; throws on failure. */
  download(url: string, params: { maxBytes: number; signal?: AbortSignal }): Promise<Buffer>;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function withTimeout(timeoutMs: number, signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return { error: { message: `not JSON: ${text.slice(0, 200)}` } };
  }
}

/** Creates the client of an account. */
export function createGraphClient(
  settings: Pick<CloudAccountSettings, "graphBase" | "accessToken" | "timeoutMs">,
): GraphClient {
  const auth = { authorization: `Bearer ${settings.accessToken}` };
  const host = hostOf(settings.graphBase);
  return {
    async call(request) {
      const url = `${settings.graphBase}/${request.path.replace(/^\/+/, "")}`;
      const headers: Record<string, string> = { ...auth };
      let body: string | FormData | undefined;
      if (request.json !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(request.json);
      } else if (request.form) body = request.form;
      let res: Response;
      let parsed: unknown;
      try {
        res = await fetch(url, {
          method: request.method,
          headers,
          ...(body !== undefined ? { body } : {}),
          signal: withTimeout(settings.timeoutMs, request.signal),
        });
        parsed = await readJson(res);
      } catch (err) {
        return { ok: false, failure: requestFailure(err, host) };
      }
      const hasError = !!parsed && typeof parsed === "object" && "error" in parsed;
      if (!res.ok || hasError)
        return {
          ok: false,
          failure: graphFailure({
            status: res.status,
            body: parsed,
            retryAfter: res.headers.get("retry-after"),
          }),
        };
      return { ok: true, body: (parsed ?? {}) as Record<string, unknown> };
    },
    async download(url, params) {
      const res = await fetch(url, {
        headers: auth,
        signal: withTimeout(settings.timeoutMs, params.signal),
      });
      if (!res.ok) throw new Error(`media download answered HTTP ${res.status}`);
      const declared = Number(res.headers.get("content-length"));
      if (Number.isFinite(declared) && declared > params.maxBytes) {
        await res.body?.cancel();
        throw new Error(`media is ${declared} bytes, over the media cap`);
      }
      const bytes = Buffer.from(await res.arrayBuffer());
      if (bytes.length > params.maxBytes)
        throw new Error(`media is ${bytes.length} bytes, over the media cap`);
      return bytes;
    },
  };
}
