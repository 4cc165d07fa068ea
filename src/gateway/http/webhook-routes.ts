// Channel webhooks on the gateway's HTTP port: a table of exact paths accounts register (and
// unregister when they stop), looked up before any other route. Webhooks sit outside gateway auth
// because the platform must reach them, so only registered exact paths answer and each handler
// verifies its own requests (signatures). The body is read in full up to the route's cap (413
// beyond it, the handler never runs); a handler that throws answers 500 and is logged.
import type { IncomingMessage, ServerResponse } from "node:http";
import type {
  ChannelWebhookRegistration,
  ChannelWebhookRequest,
  ChannelWebhookRoute,
} from "../../channels/types.js";
import type { Logger } from "../../lib/logger.js";
import { BodyTooLarge, readBody } from "./read-body.js";
import { answerText } from "./refusals.js";

/** Default body cap of a webhook route. */
export const DEFAULT_WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

const PATH_FORM = /^\/[A-Za-z0-9/_.~-]{1,255}$/;
/** Paths the gateway itself serves: no webhook may take them. */
const RESERVED_PATHS = new Set(["/health"]);

/** A route as registered, with who registered it (for collision errors and logs). */
interface RegisteredRoute {
  route: ChannelWebhookRoute;
  owner: string;
}

/** The table of webhook routes (one per gateway). */
export interface WebhookRoutes {
  /** Registers `route` for `owner` (`whatsapp/biz`); refuses a malformed, reserved or taken path. */
  register(route: ChannelWebhookRoute, owner: string): ChannelWebhookRegistration;
  /** Serves the request when its path is registered; false when it is not a webhook path. */
  serve(path: string, req: IncomingMessage, res: ServerResponse): boolean;
  /** Registered paths (status and tests). */
  paths(): string[];
}

/** Why a path cannot be a webhook path, or undefined when it can. */
export function webhookPathProblem(path: string): string | undefined {
  if (!PATH_FORM.test(path) || path.includes("//") || /(^|\/)\.\.?(\/|$)/.test(path))
    return `webhook path ${JSON.stringify(path)} must start with / and use only letters, digits and /_.~- (no empty, . or .. segments; at most 256 characters)`;
  if (RESERVED_PATHS.has(path)) return `webhook path ${path} is served by the gateway itself`;
  return undefined;
}

async function answer(
  entry: RegisteredRoute,
  req: IncomingMessage,
  res: ServerResponse,
  logger: Logger,
): Promise<void> {
  const { route } = entry;
  const method = req.method ?? "GET";
  if (!(route.methods as readonly string[]).includes(method)) {
    const allow = route.methods.join(", ");
    answerText(res, {
      status: 405,
      text: `method ${method} not allowed on ${route.path} (allowed: ${allow})`,
      headers: { allow },
    });
    return;
  }
  const maxBytes = route.maxBodyBytes ?? DEFAULT_WEBHOOK_MAX_BODY_BYTES;
  let body: Buffer;
  try {
    body = await readBody(req, maxBytes);
  } catch (err) {
    if (!(err instanceof BodyTooLarge)) throw err;
    answerText(res, {
      status: 413,
      text: `request body too large (limit ${maxBytes} bytes)`,
      headers: { connection: "close" },
    });
    return;
  }
  const request: ChannelWebhookRequest = {
    method,
    path: route.path,
    query: new URL(req.url ?? "/", "http://gateway.invalid").searchParams,
    headers: req.headers,
    body,
  };
  const response = await route.handle(request);
  answerText(res, {
    status: response.status,
    text: response.body ?? "",
    ...(response.headers ? { headers: response.headers } : {}),
  });
  logger.debug({ path: route.path, owner: entry.owner, status: response.status }, "webhook served");
}

/** Creates an empty table. */
export function createWebhookRoutes(params: { logger: Logger }): WebhookRoutes {
  const routes = new Map<string, RegisteredRoute>();
  return {
    register(route, owner) {
      const problem = webhookPathProblem(route.path);
      if (problem) return { ok: false, error: problem };
      const taken = routes.get(route.path);
      if (taken)
        return {
          ok: false,
          error: `webhook path ${route.path} is already served by ${taken.owner}: give each account its own webhookPath`,
        };
      const entry: RegisteredRoute = { route, owner };
      routes.set(route.path, entry);
      return {
        ok: true,
        path: route.path,
        unregister: () => {
          if (routes.get(route.path) === entry) routes.delete(route.path);
        },
      };
    },
    serve(path, req, res) {
      const entry = routes.get(path);
      if (!entry) return false;
      answer(entry, req, res, params.logger).catch((err: unknown) => {
        params.logger.warn(
          { path, owner: entry.owner, error: String(err) },
          "webhook handler failed",
        );
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
      return true;
    },
    paths: () => [...routes.keys()],
  };
}
