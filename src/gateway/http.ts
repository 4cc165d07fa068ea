// Plain HTTP on the gateway's port: `GET /health` (JSON) and `/` (a short page saying what this is).
import type { IncomingMessage, ServerResponse } from "node:http";

/** What the HTTP routes need. */
export interface HttpRoutesParams {
  version: string;
  health: () => unknown;
  logger: { warn(message: string, fields?: Record<string, unknown>): void };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(version: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pincer gateway</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;line-height:1.5">
<h1>Pincer gateway ${escapeHtml(version)}</h1>
<p>This port serves the OpenClaw-compatible gateway WebSocket protocol (versions 3 and 4) for the
CLI, apps and other clients, and <code>GET /health</code> as JSON.</p>
<p>The browser Control UI is not part of this build yet; it will be served here when it is.</p>
</body></html>
`;
}

/** Handles one HTTP request (never throws: failures answer 500 and are logged). */
export function handleHttp(
  params: HttpRoutesParams,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  try {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
    } else if (path === "/health") {
      const body = JSON.stringify(params.health());
      res.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "no-store",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } else if (path === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(req.method === "HEAD" ? undefined : page(params.version));
    } else {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
    }
  } catch (err) {
    params.logger.warn("http handler failed", { url: req.url, error: String(err) });
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
}
