// Why a connection to a host failed, named: DNS, refused, TLS, reset or timeout. Read from an error's
// `code` (and its `cause` chain, as undici's `fetch failed` carries it) or, when an SDK dropped the
// cause (OpenAI's "Connection error."), found by probing the host: lookup, TCP connect, TLS handshake.
import { lookup } from "node:dns/promises";
import net from "node:net";
import tls from "node:tls";

/** A named connection failure: its kind, the system code, the host, and a sentence for users. */
export interface ConnectionCause {
  kind: "dns" | "refused" | "tls" | "reset" | "timeout";
  code: string;
  host: string;
  detail: string;
}

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_FAIL", "EAI_NODATA"]);
const TLS_CODE =
  /^(?:CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$)/;

/** The kind of a system error code, or undefined when the code says nothing about connecting. */
export function connectionKind(code: string): ConnectionCause["kind"] | undefined {
  if (DNS_CODES.has(code)) return "dns";
  if (code === "ECONNREFUSED") return "refused";
  if (TLS_CODE.test(code)) return "tls";
  if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET") return "reset";
  if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT") return "timeout";
  return undefined;
}

/** The sentence for a cause: `DNS lookup of api.acme.test failed (ENOTFOUND)`. */
export function describeCause(cause: Omit<ConnectionCause, "detail">, port?: number): string {
  const at = port ? `${cause.host}:${port}` : cause.host;
  switch (cause.kind) {
    case "dns":
      return `DNS lookup of ${cause.host} failed (${cause.code})`;
    case "refused":
      return `connection to ${at} refused (${cause.code})`;
    case "tls":
      return `TLS handshake with ${at} failed: certificate not trusted (${cause.code})`;
    case "reset":
      return `connection to ${at} reset (${cause.code})`;
    case "timeout":
      return `connection to ${at} timed out (${cause.code})`;
  }
}

function errorChain(err: unknown): Array<Record<string, unknown>> {
  const chain: Array<Record<string, unknown>> = [];
  let current: unknown = err;
  while (typeof current === "object" && current !== null && chain.length < 8) {
    const record = current as Record<string, unknown>;
    chain.push(record);
    // AggregateError (happy eyeballs) keeps the per-address errors in `errors`.
    const errors = record.errors;
    if (Array.isArray(errors) && errors.length > 0) chain.push(...errorChain(errors[0]));
    current = record.cause;
  }
  return chain;
}

/** The cause named by an error's `code` or `cause.code` chain; undefined when none names one. */
export function connectionCauseOf(err: unknown, fallbackHost: string): ConnectionCause | undefined {
  for (const link of errorChain(err)) {
    const code = typeof link.code === "string" ? link.code : undefined;
    const kind = code ? connectionKind(code) : undefined;
    if (!code || !kind) continue;
    const host =
      typeof link.hostname === "string"
        ? link.hostname
        : typeof link.host === "string"
          ? link.host
          : typeof link.address === "string"
            ? link.address
            : fallbackHost;
    const port = typeof link.port === "number" ? link.port : undefined;
    return { kind, code, host, detail: describeCause({ kind, code, host }, port) };
  }
  return undefined;
}

function errnoCode(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : "UNKNOWN";
}

function connectOnce(options: {
  host: string;
  port: number;
  secure: boolean;
  timeoutMs: number;
}): Promise<string | undefined> {
  return new Promise((resolve) => {
    const { host, port, timeoutMs } = options;
    const socket = options.secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host })
      : net.connect({ host, port });
    const done = (code: string | undefined) => {
      socket.destroy();
      resolve(code);
    };
    socket.setTimeout(timeoutMs, () => done("ETIMEDOUT"));
    socket.once("error", (err) => done(errnoCode(err)));
    socket.once(options.secure ? "secureConnect" : "connect", () => done(undefined));
  });
}

/**
 * Probes `url`'s host as a client would: DNS lookup, TCP connect, then (https) a verified TLS
 * handshake. Returns the first step that fails, or undefined when the host is reachable.
 */
export async function probeConnection(
  url: string,
  options: { timeoutMs?: number } = {},
): Promise<ConnectionCause | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  const secure = parsed.protocol === "https:" || parsed.protocol === "wss:";
  const port = Number(parsed.port) || (secure ? 443 : 80);
  const timeoutMs = options.timeoutMs ?? 5000;
  if (!net.isIP(host)) {
    try {
      await lookup(host);
    } catch (err) {
      const code = errnoCode(err);
      return { kind: "dns", code, host, detail: describeCause({ kind: "dns", code, host }) };
    }
  }
  const code = await connectOnce({ host, port, secure, timeoutMs });
  if (!code) return undefined;
  const kind = connectionKind(code) ?? (secure ? "tls" : "reset");
  return { kind, code, host, detail: describeCause({ kind, code, host }, port) };
}
