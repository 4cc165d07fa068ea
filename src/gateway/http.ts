// Plain HTTP on the gateway's port: `GET /health` (JSON) and the WebChat files (the package's
// dist/ui/, `/` being its page); anything else is 404.
import type { IncomingMessage, ServerResponse } from "node:http";
import { serveUiFile } from "./ui-files.js";

/** What the HTTP routes need. */
export interface HttpRoutesParams {
  version: string;
  health: () => unknown;
  logger: { warn(message: string, fields?: Record<string, unknown>): void };
  /** Folder of the built WebChat (see defaultUiDir); undefined serves no UI. */
  uiDir: string | undefined;
}

function fail(params: HttpRoutesParams, req: IncomingMessage, res: ServerResponse, err: unknown) {
  params.logger.warn("http handler failed", { url: req.url, error: String(err) });
  if (!res.headersSent) res.writeHead(500);
  res.end();
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
    } else {
      serveUiFile({ uiDir: params.uiDir, path, req, res }).catch((err: unknown) =>
        fail(params, req, res, err),
      );
    }
  } catch (err) {
    fail(params, req, res, err);
  }
}
