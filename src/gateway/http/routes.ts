// Plain HTTP on the gateway's port: `GET /health` (JSON) and the Control UI files (the package's
// dist/ui/, at `/` or under `gateway.controlUi.basePath`, e.g. `/ui/`; all 404 while
// `gateway.controlUi.enabled` is false); anything else is 404. A request is checked first: target length
// (414), form and percent-encoding (400), method (405 with Allow), a WebSocket upgrade that is not
// one (400) — see refusals.ts for what node's parser itself refuses. A path a channel account
// registered as its webhook (webhook-routes.ts) is served by that account, before everything else.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../lib/logger.js";
import type { HooksHttp } from "./hooks-http.js";
import { ALLOWED_METHODS, answerText, checkRequestTarget } from "./refusals.js";
import { matchUiPath, normalizeUiBasePath } from "./ui-base-path.js";
import { serveUiFile, UI_SECURITY_HEADERS } from "./ui-files.js";
import type { WebhookRoutes } from "./webhook-routes.js";

/** What the HTTP routes need. */
export interface HttpRoutesParams {
  version: string;
  health: () => unknown;
  logger: Logger;
  /** Folder of the built Control UI (see defaultUiDir); undefined serves no UI. */
  uiDir: string | undefined;
  /** `gateway.controlUi.enabled` now (read per request, so a reload applies at once). */
  uiEnabled: () => boolean;
  /** `gateway.controlUi.basePath` as configured now (read per request); unset serves it at `/`. */
  uiBasePath?: () => unknown;
  /** Channel webhooks (exact paths, outside gateway auth; each verifies its own requests). */
  webhooks?: WebhookRoutes;
  /** Webhook ingress under `hooks.path` (token-authenticated; hooks-http.ts). */
  hooks?: HooksHttp;
}

function fail(params: HttpRoutesParams, req: IncomingMessage, res: ServerResponse, err: unknown) {
  params.logger.warn({ url: req.url, error: String(err) }, "http handler failed");
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
    const target = checkRequestTarget(req);
    if (!target.ok) {
      answerText(res, { status: target.status, text: target.text });
      return;
    }
    const { path } = target;
    if (params.webhooks?.serve(path, req, res)) return;
    if (params.hooks?.serve(path, req, res)) return;
    if (req.method !== "GET" && req.method !== "HEAD") {
      answerText(res, {
        status: 405,
        text: `method ${req.method} not allowed on ${path} (allowed: ${ALLOWED_METHODS})`,
        headers: { allow: ALLOWED_METHODS },
      });
    } else if (/\bwebsocket\b/i.test(String(req.headers.upgrade ?? ""))) {
      // node hands real upgrades to the upgrade handler; this one lacks `Connection: Upgrade`.
      answerText(res, {
        status: 400,
        text: "WebSocket upgrade needs `Connection: Upgrade` and `Upgrade: websocket`",
      });
    } else if (path === "/health") {
      const body = JSON.stringify(params.health());
      res.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "no-store",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } else {
      serveUi(params, { path, req, res });
    }
  } catch (err) {
    fail(params, req, res, err);
  }
}

/** Serves a UI path: under the base path (redirecting the bare base to `base/`), else 404. */
function serveUi(
  params: HttpRoutesParams,
  request: { path: string; req: IncomingMessage; res: ServerResponse },
): void {
  const { path, req, res } = request;
  const enabled = params.uiEnabled();
  const base = normalizeUiBasePath(params.uiBasePath?.());
  if (!base.ok) {
    answerText(res, { status: 404, text: `the Control UI is not served: ${base.message}` });
    return;
  }
  const match = enabled ? matchUiPath(base.path, path) : ({ kind: "ui", path } as const);
  if (match.kind === "redirect") {
    const url = req.url ?? "";
    const query = url.includes("?") ? url.slice(url.indexOf("?")) : "";
    res.writeHead(301, { ...UI_SECURITY_HEADERS, location: `${match.location}${query}` });
    res.end();
    return;
  }
  if (match.kind === "outside") {
    answerText(res, {
      status: 404,
      text: `not found (the Control UI is at ${base.path}/: gateway.controlUi.basePath)`,
      headers: UI_SECURITY_HEADERS,
    });
    return;
  }
  serveUiFile({ uiDir: params.uiDir, enabled, path: match.path, req, res }).catch((err: unknown) =>
    fail(params, req, res, err),
  );
}
