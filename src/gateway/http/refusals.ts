// How the gateway's HTTP port answers requests it cannot serve, instead of dropping the socket:
// node's parser errors (`clientError`: 400, 408, 413, 414, 431), the CONNECT method (405), and
// the request-target checks the routes run first (414 over MAX_URL_BYTES, 400 for a target or
// percent-encoding that names no path, 400 for duplicate Host headers).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "../../lib/logger.js";

/** Largest request line + headers node parses (node's default, fixed here explicitly). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Longest request target served; longer answers 414 (node has no URL limit of its own). */
export const MAX_URL_BYTES = 8 * 1024;
/** The methods every gateway path allows. */
export const ALLOWED_METHODS = "GET, HEAD";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  413: "Content Too Large",
  414: "URI Too Long",
  431: "Request Header Fields Too Large",
};

/** A minimal HTTP/1.1 response that closes the connection; the body is one line of text. */
export function rawResponse(status: number, text: string, headers: string[] = []): string {
  const body = `${text}\n`;
  return [
    `HTTP/1.1 ${status} ${REASONS[status] ?? "Error"}`,
    "Connection: close",
    "Content-Type: text/plain; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...headers,
    "",
    body,
  ].join("\r\n");
}

type ParserError = Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number };

/**
 * True when the parser overflowed inside a request line: the bytes it read of the current
 * request start with a method and reach no line end. (A line split over several TCP reads
 * is only seen from its last chunk; that case answers 431.)
 */
export function overflowedInRequestLine(err: ParserError): boolean {
  if (!err.rawPacket) return false;
  const end = Math.min(err.bytesParsed ?? err.rawPacket.length, err.rawPacket.length);
  const seen = err.rawPacket.subarray(0, end).toString("latin1");
  // A header line never starts with "METHOD " (a name is followed by ':'), so this is a request line.
  return /^[A-Z]+ \S*$/.test(seen.slice(seen.lastIndexOf("\n") + 1));
}

/** The status and text for an error of node's HTTP parser. */
export function describeClientError(err: ParserError): { status: number; text: string } {
  const detail = err.message.replace(/^Parse Error: /, "");
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW":
      return overflowedInRequestLine(err)
        ? { status: 414, text: `request target too long (limit ${MAX_URL_BYTES} bytes)` }
        : { status: 431, text: `request headers too large (limit ${MAX_HEADER_BYTES} bytes)` };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { status: 413, text: "chunk extensions too large" };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, text: "request not received in time" };
    default:
      return { status: 400, text: `malformed request: ${detail}` };
  }
}

type SocketWithMessage = Duplex & { _httpMessage?: { headersSent?: boolean } | null };

/**
 * node's documented `clientError` pattern: answer with a minimal response when the socket is still
 * writable and no response is under way on it (never corrupt one in flight), then destroy it.
 */
export function answerClientError(err: ParserError, socket: Duplex, logger: Logger): void {
  const inFlight = (socket as SocketWithMessage)._httpMessage?.headersSent === true;
  const gone = err.code === "ECONNRESET" || err.code === "EPIPE";
  const { status, text } = describeClientError(err);
  logger.debug({ code: err.code, status, error: err.message }, "http client error");
  if (!gone && socket.writable && !inFlight) socket.write(rawResponse(status, text));
  socket.destroy();
}

/** CONNECT is no gateway method: 405 with `Allow` (node would otherwise drop the socket). */
export function answerConnectMethod(socket: Duplex): void {
  socket.on("error", () => socket.destroy());
  if (socket.writable) {
    const text = `method CONNECT not allowed (allowed: ${ALLOWED_METHODS})`;
    socket.write(rawResponse(405, text, [`Allow: ${ALLOWED_METHODS}`]));
  }
  socket.destroy();
}

/** The decoded-once URL path of a request, or the refusal it gets (status and text). */
export type RequestTarget =
  | { ok: true; path: string }
  | { ok: false; status: number; text: string };

function rawPathOf(url: string): string | undefined {
  if (url.startsWith("/")) return url.split(/[?#]/, 1)[0];
  if (/^https?:\/\//i.test(url)) {
    try {
      return new URL(url).pathname;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Checks a request's target: length (414), form, percent-encoding and a single Host (400). */
export function checkRequestTarget(req: IncomingMessage): RequestTarget {
  const url = req.url ?? "/";
  if (Buffer.byteLength(url) > MAX_URL_BYTES) {
    return {
      ok: false,
      status: 414,
      text: `request target too long (limit ${MAX_URL_BYTES} bytes)`,
    };
  }
  const hosts = req.rawHeaders.filter((_, i) => i % 2 === 0 && /^host$/i.test(req.rawHeaders[i]));
  if (hosts.length > 1) return { ok: false, status: 400, text: "more than one Host header" };
  const path = rawPathOf(url);
  if (path === undefined) {
    return { ok: false, status: 400, text: "request target must be a path starting with /" };
  }
  try {
    decodeURIComponent(path);
  } catch {
    return { ok: false, status: 400, text: "malformed percent-encoding in the URL path" };
  }
  return { ok: true, path };
}

/** Ends a response with a one-line text body and the given status. */
export function answerText(
  res: ServerResponse,
  params: { status: number; text: string; headers?: Record<string, string> },
): void {
  res.writeHead(params.status, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...params.headers,
  });
  res.end(`${params.text}\n`);
}
