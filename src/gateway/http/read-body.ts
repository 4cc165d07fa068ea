// Reading a request body up to a byte limit, for the gateway's HTTP endpoints (channel webhooks,
// `/hooks/*`): a declared or actual size past the limit rejects with BodyTooLarge (answered 413).
import type { IncomingMessage } from "node:http";

/** The body exceeded the endpoint's limit. */
export class BodyTooLarge extends Error {}

/** The whole body of `req`, or a BodyTooLarge rejection once it passes `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners("data");
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}
