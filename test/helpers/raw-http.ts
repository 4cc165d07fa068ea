// Raw HTTP over a `net` socket: bytes exactly as written (no client-side validation or URL
// normalization), and the answer as received — or a note that the socket was dropped silently.
import { connect } from "node:net";

/** What came back on the socket. */
export interface RawHttpAnswer {
  /** The status line, or "" when the socket closed (or stayed silent) without a response. */
  statusLine: string;
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: string;
}

function parse(text: string): RawHttpAnswer | undefined {
  const end = text.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(end + 4);
  const length = Number(headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(length) && Buffer.byteLength(body) < length) return undefined;
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  return { statusLine, status, headers, body };
}

/** Sends `parts` (written one by one) to 127.0.0.1:`port` and resolves with the first response. */
export function rawHttp(
  port: number,
  parts: string | Array<string | Buffer>,
  timeoutMs = 5_000,
): Promise<RawHttpAnswer> {
  const chunks = typeof parts === "string" ? [parts] : parts;
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = received.toString("latin1");
      resolve(parse(text) ?? { statusLine: "", status: 0, headers: {}, body: text });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (parse(received.toString("latin1"))) finish();
    });
    socket.on("close", finish);
    socket.on("error", finish);
    socket.on("connect", () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}
