import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentAction, WakeAction } from "../../hooks/webhooks/actions.js";
import { createEntryLogger, type LogEntry } from "../../lib/logger.js";
import { sameSecret } from "../../lib/same-secret.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { createHooksHttp, HOOK_AUTH_FAILURES_PER_MINUTE } from "./hooks-http.js";

const TOKEN = "s3cret-token";
let server: Server | undefined;
afterEach(async () => {
  await new Promise((done) => server?.close(done) ?? done(undefined));
  server = undefined;
});

async function serve(hooks: OpenClawConfig["hooks"]) {
  const logs: LogEntry[] = [];
  const calls: Array<WakeAction | AgentAction> = [];
  const route = createHooksHttp({
    config: () => ({ hooks }),
    env: {},
    logger: createEntryLogger((entry) => logs.push(entry)),
    now: Date.now,
    actions: async () => ({
      wake: async (action) => {
        calls.push(action);
        return { status: 200, body: { ok: true, mode: action.mode } };
      },
      agent: async (action) => {
        calls.push(action);
        return { status: 202, body: { ok: true, runId: "hook-1" } };
      },
    }),
  });
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (!route.serve(path, req, res)) {
      res.writeHead(404);
      res.end("not a hook path");
    }
  });
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  const post = async (
    path: string,
    body: string,
    headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
    method = "POST",
  ) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(method === "POST" ? { body } : {}),
    });
    const text = await res.text();
    return { status: res.status, text, headers: res.headers };
  };
  return { post, calls, logs, route };
}

describe("hooks HTTP route", () => {
  it("stays off without hooks.enabled or without a token (logged once)", async () => {
    const off = await serve({ enabled: false, token: TOKEN });
    expect((await off.post("/hooks/wake", "{}")).status).toBe(404);
    await new Promise((done) => server?.close(done));
    const noToken = await serve({ enabled: true });
    expect((await noToken.post("/hooks/wake", "{}")).status).toBe(404);
    noToken.route.check();
    noToken.route.check();
    const errors = noToken.logs
      .filter((entry) => entry.level === "error")
      .map((entry) => entry.msg);
    expect(errors).toEqual([
      "webhooks off: hooks.enabled is true but hooks.token is not set: set hooks.token (a dedicated secret)",
    ]);
  });

  it("answers 405, 400 for a query token, 401 for a bad token, then 429 after repeated wrong guesses", async () => {
    const hook = await serve({ enabled: true, token: TOKEN });
    const get = await hook.post("/hooks/wake", "", {}, "GET");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const query = await hook.post(`/hooks/wake?token=${TOKEN}`, '{"text":"x"}');
    expect(query.status).toBe(400);
    expect(JSON.parse(query.text).error).toContain("query string is not accepted");
    for (let i = 0; i < HOOK_AUTH_FAILURES_PER_MINUTE; i++) {
      const bad = await hook.post("/hooks/wake", '{"text":"x"}', { "x-openclaw-token": "wrong" });
      expect(bad.status).toBe(401);
    }
    const limited = await hook.post("/hooks/wake", '{"text":"x"}', {
      authorization: "Bearer wrong",
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // The right token still passes: only wrong guesses are limited.
    expect((await hook.post("/hooks/wake", '{"text":"x"}')).status).toBe(200);
    expect(hook.calls).toHaveLength(1);
  });

  it("caps the body (413), refuses bad JSON and fields (400), and maps custom paths", async () => {
    const hook = await serve({
      enabled: true,
      token: TOKEN,
      path: "/in",
      maxBodyBytes: 64,
      mappings: [
        {
          match: { path: "github" },
          messageTemplate: "PR {{pr.title}} by {{headers.x-user}}",
          name: "GitHub",
        },
      ],
    });
    expect((await hook.post("/in/wake", JSON.stringify({ text: "x".repeat(100) }))).status).toBe(
      413,
    );
    expect((await hook.post("/in/wake", "[1]")).status).toBe(400);
    const noText = await hook.post("/in/agent", "{}");
    expect(JSON.parse(noText.text)).toEqual({
      ok: false,
      error: "message is required (a non-empty string)",
    });
    const unknown = await hook.post("/in/unknown", "{}");
    expect(unknown.status).toBe(404);
    const mapped = await hook.post("/in/github", '{"pr":{"title":"Fix"}}', {
      authorization: `Bearer ${TOKEN}`,
      "x-user": "ada",
    });
    expect(mapped.status).toBe(202);
    expect(JSON.parse(mapped.text)).toEqual({ ok: true, runId: "hook-1" });
    expect(hook.calls).toEqual([
      expect.objectContaining({ kind: "agent", message: "PR Fix by ada", name: "GitHub" }),
    ]);
    expect((await hook.post("/hooks/wake", "{}")).status).toBe(404);
  });

  it("compares tokens of any length", () => {
    expect(sameSecret("a", "a")).toBe(true);
    expect(sameSecret("a", "ab")).toBe(false);
  });
});
