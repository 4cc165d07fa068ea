// Webhook ingress on the gateway's port (`hooks.enabled`): `POST <hooks.path>/wake`, `/agent` and
// mapped `/<name>` paths. Checked in order: the route is on (a missing token keeps it off, logged),
// POST only (405), no token in the query string (400), the token from `Authorization: Bearer` or
// `x-openclaw-token` compared in constant time (401; repeated wrong guesses from one address 429),
// a per-address request limit (429), the body cap (413), JSON (400), the action's fields (400).
// Answers are JSON: 200 {ok, mode} for a wake, 202 {ok, runId} for a turn. The work itself is done
// by hooks-actions.ts, loaded on the first request that gets that far.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AgentAction, WakeAction } from "../../hooks/webhooks/actions.js";
import { resolveWebhookSettings, type WebhookSettings } from "../../hooks/webhooks/settings.js";
import type { Logger } from "../../lib/logger.js";
import { sameSecret } from "../../lib/same-secret.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { AuthRateLimiter } from "../auth/failed-auth-limit.js";
import { BodyTooLarge, readBody } from "./read-body.js";

/** Wrong tokens per address and minute before refusals (429). */
export const HOOK_AUTH_FAILURES_PER_MINUTE = 20;
/** Accepted requests per address and minute before refusals (429). */
export const HOOK_REQUESTS_PER_MINUTE = 120;

/** What a webhook's work answers: a status and a JSON body. */
export interface HookReply {
  status: number;
  body: Record<string, unknown>;
}

/** Runs checked actions (hooks-actions.ts). */
export interface HookActionRunner {
  wake(action: WakeAction): Promise<HookReply>;
  agent(action: AgentAction, settings: WebhookSettings): Promise<HookReply>;
}

/** Inputs of {@link createHooksHttp}. */
export interface HooksHttpParams {
  config: () => OpenClawConfig;
  env: Record<string, string | undefined>;
  logger: Logger;
  now: () => number;
  /** Loads the action runner (first use only). */
  actions: () => Promise<HookActionRunner>;
}

/** The webhook route. */
export interface HooksHttp {
  /** Serves the request when its path is under `hooks.path` and the route is on; else false. */
  serve(path: string, req: IncomingMessage, res: ServerResponse): boolean;
  /** Logs why the route is off when `hooks.enabled` but unusable (at start and on reload). */
  check(): void;
}

function answerJson(res: ServerResponse, reply: HookReply, headers: Record<string, string> = {}) {
  res.writeHead(reply.status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...headers,
  });
  res.end(JSON.stringify(reply.body));
}

const refuse = (status: number, error: string): HookReply => ({
  status,
  body: { ok: false, error },
});

function presentedToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  const bearer = typeof auth === "string" ? /^Bearer\s+(.+)$/i.exec(auth.trim())?.[1] : undefined;
  if (bearer) return bearer.trim();
  const header = req.headers["x-openclaw-token"];
  return typeof header === "string" && header.trim() ? header.trim() : undefined;
}

function parseBody(
  raw: Buffer,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const text = raw.toString("utf8").trim();
  if (!text) return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return {
      ok: false,
      error: `invalid JSON body: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: "the body must be a JSON object" };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** Creates the route (no state but the rate limits). */
export function createHooksHttp(params: HooksHttpParams): HooksHttp {
  const failures = new AuthRateLimiter({ max: HOOK_AUTH_FAILURES_PER_MINUTE, now: params.now });
  const requests = new AuthRateLimiter({ max: HOOK_REQUESTS_PER_MINUTE, now: params.now });
  let warned: string | undefined;
  let runner: Promise<HookActionRunner> | undefined;
  const settingsNow = () => resolveWebhookSettings(params.config().hooks, params.env);
  const handle = async (
    settings: WebhookSettings,
    sub: string,
    req: IncomingMessage,
  ): Promise<{ reply: HookReply; headers?: Record<string, string> }> => {
    const address = req.socket.remoteAddress ?? "unknown";
    const query = new URL(req.url ?? "/", "http://gateway.invalid").searchParams;
    if (query.has("token")) {
      return {
        reply: refuse(
          400,
          "a token in the query string is not accepted: send it as Authorization: Bearer <token> or x-openclaw-token",
        ),
      };
    }
    const token = presentedToken(req);
    if (!token || !sameSecret(token, settings.token)) {
      const wait = failures.retryAfterMs(address);
      if (wait > 0) {
        const retry = String(Math.ceil(wait / 1000));
        return {
          reply: refuse(429, "too many failed hook auth attempts"),
          headers: { "retry-after": retry },
        };
      }
      failures.fail(address);
      params.logger.warn(
        { path: `${settings.basePath}/${sub}`, address },
        "hook request refused: bad or missing token",
      );
      return {
        reply: refuse(
          401,
          "unauthorized: send the hooks.token as Authorization: Bearer <token> or x-openclaw-token",
        ),
      };
    }
    const wait = requests.retryAfterMs(address);
    if (wait > 0) {
      return {
        reply: refuse(429, "too many hook requests"),
        headers: { "retry-after": String(Math.ceil(wait / 1000)) },
      };
    }
    requests.fail(address);
    let raw: Buffer;
    try {
      raw = await readBody(req, settings.maxBodyBytes);
    } catch (err) {
      if (!(err instanceof BodyTooLarge)) throw err;
      return {
        reply: refuse(
          413,
          `request body too large (limit ${settings.maxBodyBytes} bytes: hooks.maxBodyBytes)`,
        ),
        headers: { connection: "close" },
      };
    }
    const parsed = parseBody(raw);
    if (!parsed.ok) return { reply: refuse(400, parsed.error) };
    const body = parsed.value;
    const checks = await import("../../hooks/webhooks/actions.js");
    let checked: ReturnType<typeof checks.wakeAction>;
    if (sub === "wake") checked = checks.wakeAction(body);
    else if (sub === "agent") checked = checks.agentAction(body);
    else {
      const mapping = checks.findMapping(settings.mappings, sub, body);
      if (!mapping)
        return {
          reply: refuse(404, `no hooks.mappings entry matches ${settings.basePath}/${sub}`),
        };
      checked = checks.mappedAction(mapping, {
        payload: body,
        headers: req.headers,
        query,
        path: sub,
        now: new Date(params.now()),
      });
    }
    if (!checked.ok) return { reply: refuse(400, checked.error) };
    runner ??= params.actions().catch((err: unknown) => {
      runner = undefined;
      throw err;
    });
    const actions = await runner;
    const reply =
      checked.action.kind === "wake"
        ? await actions.wake(checked.action)
        : await actions.agent(checked.action, settings);
    return { reply };
  };
  return {
    check() {
      const result = settingsNow();
      if (result.status !== "invalid") {
        warned = undefined;
        return;
      }
      if (warned === result.problem) return;
      warned = result.problem;
      params.logger.error(`webhooks off: ${result.problem}`);
    },
    serve(path, req, res) {
      const result = settingsNow();
      if (result.status !== "on") return false;
      const { settings } = result;
      if (path !== settings.basePath && !path.startsWith(`${settings.basePath}/`)) return false;
      const sub = path.slice(settings.basePath.length + 1).replace(/\/+$/, "");
      if (req.method !== "POST") {
        answerJson(
          res,
          refuse(405, `method ${req.method} not allowed on ${path} (allowed: POST)`),
          { allow: "POST" },
        );
        return true;
      }
      if (!sub) {
        answerJson(
          res,
          refuse(
            404,
            `POST ${settings.basePath}/wake, ${settings.basePath}/agent or a mapped path`,
          ),
        );
        return true;
      }
      handle(settings, sub, req)
        .then(({ reply, headers }) => answerJson(res, reply, headers))
        .catch((err: unknown) => {
          params.logger.error({ path, error: String(err) }, "hook request failed");
          if (!res.headersSent) answerJson(res, refuse(500, "internal error"));
          else res.end();
        });
      return true;
    },
  };
}
