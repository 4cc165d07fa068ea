// The gateway client commands (`gateway call`, `health`, `status`, `agent` without --local) run
// in-process through their modules' `run`, against a real gateway on port 0 with the fake model.
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { run as agentRun } from "../src/cli/agent/run.js";
import type { CommandInput } from "../src/cli/command.js";
import { type CliContext, CliError } from "../src/cli/command-context.js";
import { run as gatewayCall } from "../src/cli/gateway/call.js";
import { resolveGatewayTarget } from "../src/cli/gateway-client-options.js";
import { run as health } from "../src/cli/status/health.js";
import { run as status } from "../src/cli/status/status.js";
import { writeFileAtomic } from "../src/lib/atomic-write.js";
import { capturingContext } from "./helpers/fake-process-io.js";
import {
  closedPort,
  createGatewaySandbox,
  type GatewaySandbox,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";

// biome-ignore lint/suspicious/noExplicitAny: the fake gateway reads request params loosely.
type Loose = Record<string, any>;

type Run = (ctx: CliContext, input: CommandInput<never>) => Promise<number | undefined>;

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

/** Runs a command module like runCli does: captured output, CliError → stderr + its exit code. */
async function cli(
  command: Run,
  params: { env: Record<string, string>; args?: string[]; opts?: Record<string, unknown> },
) {
  const { ctx, out, err: errText } = capturingContext({ env: params.env });
  let refusal = "";
  let code: number;
  try {
    code =
      (await command(ctx, { args: params.args ?? [], opts: (params.opts ?? {}) as never })) ?? 0;
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    refusal = `error: ${err.message}\n`;
    code = err.exitCode;
  }
  return { code, stdout: out(), stderr: errText() + refusal };
}

/** The sandbox env with OPENCLAW_GATEWAY_TOKEN, and --url pointing at its gateway. */
function target(sandbox: GatewaySandbox) {
  return {
    env: { ...sandbox.env, OPENCLAW_GATEWAY_TOKEN: TEST_TOKEN },
    url: sandbox.gw.url,
  };
}

describe("gateway client options", () => {
  it("defaults the url to gateway.port and the token to env, then gateway.auth, then remote", async () => {
    box = await createGatewaySandbox();
    const cfg = { gateway: { port: 19999, auth: { token: "from-auth" }, remote: { token: "r" } } };
    writeFileAtomic(box.configPath, JSON.stringify(cfg));
    const ctx = { env: box.env, stdout: () => {}, stderr: () => {} } as unknown as CliContext;
    expect(resolveGatewayTarget(ctx, {})).toMatchObject({
      url: "ws://127.0.0.1:19999",
      token: "from-auth",
      timeoutMs: 10_000,
    });
    const withEnv = { ...ctx, env: { ...box.env, OPENCLAW_GATEWAY_TOKEN: "env" } };
    expect(resolveGatewayTarget(withEnv, { timeout: "250" })).toMatchObject({
      token: "env",
      timeoutMs: 250,
    });
    expect(resolveGatewayTarget(withEnv, { token: "flag" }).token).toBe("flag");
    writeFileAtomic(box.configPath, JSON.stringify({ gateway: { remote: { token: "r" } } }));
    expect(resolveGatewayTarget(ctx, {})).toMatchObject({
      url: "ws://127.0.0.1:18789",
      token: "r",
    });
    expect(() => resolveGatewayTarget(ctx, { timeout: "soon" })).toThrow(/--timeout/);
  });
});

describe("pincer gateway call", () => {
  it("prints the payload of health", async () => {
    box = await createGatewaySandbox();
    const { env, url } = target(box);
    const res = await cli(gatewayCall as Run, { env, args: ["health"], opts: { url } });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ ok: true, defaultAgentId: "main" });
  });

  it("waits for the final of agent with --expect-final and --params", async () => {
    box = await createGatewaySandbox();
    box.fake.text("called through the cli", { chunks: 2 });
    const { env, url } = target(box);
    const params = JSON.stringify({ message: "hi", idempotencyKey: "call-1", sessionKey: "main" });
    const res = await cli(gatewayCall as Run, {
      env,
      args: ["agent"],
      opts: { url, params, expectFinal: true },
    });
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ runId: "call-1", status: "ok", summary: "completed" });
    expect(out.result.payloads[0].text).toBe("called through the cli");
  });

  it("exits 1 with code and message on an error response, 2 on bad --params", async () => {
    box = await createGatewaySandbox();
    const { env, url } = target(box);
    const res = await cli(gatewayCall as Run, {
      env,
      args: ["agent"],
      opts: { url, params: '{"message":"hi"}', json: true },
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("agent failed: INVALID_REQUEST");
    expect(res.stderr).toContain("idempotencyKey");
    expect(JSON.parse(res.stdout).error.code).toBe("INVALID_REQUEST");
    const bad = await cli(gatewayCall as Run, {
      env,
      args: ["health"],
      opts: { url, params: "{" },
    });
    expect(bad.code).toBe(2);
  });

  it("exits 1 with 'gateway not reachable at URL' when nothing listens", async () => {
    const url = `ws://127.0.0.1:${await closedPort()}`;
    box = await createGatewaySandbox();
    const res = await cli(gatewayCall as Run, { env: box.env, args: ["health"], opts: { url } });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`gateway not reachable at ${url}`);
    const wrong = await cli(gatewayCall as Run, {
      env: box.env,
      args: ["health"],
      opts: { url: box.gw.url, token: "wrong" },
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("AUTH_TOKEN_MISMATCH");
  });
});

describe("pincer health", () => {
  it("prints a short summary, or the payload with --json", async () => {
    box = await createGatewaySandbox();
    const { env, url } = target(box);
    const res = await cli(health as Run, { env, opts: { url } });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`gateway ${url}: ok (protocol 4`);
    expect(res.stdout).toContain("agent main (default): 0 sessions");
    expect(res.stdout).toContain("runs: 0 active, 0 queued");
    const json = await cli(health as Run, { env, opts: { url, json: true } });
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, agents: [{ agentId: "main" }] });
  });
});

describe("pincer status", () => {
  it("shows gateway, agents, sessions, channels and models from a running gateway", async () => {
    box = await createGatewaySandbox();
    box.fake.text("hi", { chunks: 1 });
    const { env, url } = target(box);
    await cli(agentRun as Run, { env, opts: { url, message: "hello" } });
    const res = await cli(status as Run, { env, opts: { url } });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/Gateway {3}ws:\/\/127\.0\.0\.1:\d+ running \(pincer /);
    expect(res.stdout).toContain("Agents    1 (default main, session scope per-sender)");
    expect(res.stdout).toContain("main (default)  model fake/m1  sessions 1");
    expect(res.stdout).toContain("Sessions  1");
    expect(res.stdout).toContain("agent:main:main");
    expect(res.stdout).toContain("Channels  none");
    expect(res.stdout).toMatch(/Models {4}\d+ available; in use: fake\/m1/);
    const json = await cli(status as Run, { env, opts: { url, json: true, all: true } });
    const report = JSON.parse(json.stdout);
    expect(report.gateway).toMatchObject({ running: true, url, authMode: "token" });
    expect(report.models.all.length).toBe(report.models.count);
  });

  it("says the gateway is not running and shows the local config and stores", async () => {
    box = await createGatewaySandbox();
    box.fake.text("hi", { chunks: 1 });
    const { env, url } = target(box);
    await cli(agentRun as Run, { env, opts: { url, message: "hello" } });
    await box.gw.close("test");
    const res = await cli(status as Run, { env, opts: { url } });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(
      `Gateway   ${url} not running (not reachable); showing local state`,
    );
    expect(res.stdout).toContain("main (default)  model fake/m1  sessions 1");
    const json = JSON.parse((await cli(status as Run, { env, opts: { url, json: true } })).stdout);
    expect(json).toMatchObject({ gateway: { running: false }, sessions: { count: 1 } });
  });
});

describe("pincer agent through the gateway", () => {
  it("streams the reply to stdout and exits 0", async () => {
    box = await createGatewaySandbox();
    box.fake.text("Streaming via the gateway", { chunks: 4 });
    box.fake.text("second", { chunks: 1 });
    const { env, url } = target(box);
    const res = await cli(agentRun as Run, {
      env,
      opts: { url, message: "hi", sessionKey: "main" },
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("Streaming via the gateway\n");
    const json = await cli(agentRun as Run, {
      env,
      opts: { url, message: "again", agent: "main", json: true },
    });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: "ok", sessionKey: "agent:main:main" });
  });

  it("streams a long reply from its text-deltas chat events, exactly, across delta windows", async () => {
    // 1 ms per clock read: the 150 ms delta window is crossed every few dozen deltas, and the
    // text held at the end arrives with the final.
    let t = 1_700_000_000_000;
    box = await createGatewaySandbox({ options: { clock: { now: () => (t += 1) } } });
    const body = "0123456789abcdef".repeat(200);
    box.fake.text(`Start <think>hidden ${body}</think>${body} end`, { chunks: 420 });
    const { env, url } = target(box);
    const res = await cli(agentRun as Run, { env, opts: { url, message: "hi" } });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`Start ${body} end\n`);
  });

  it("streams agent assistant deltas from a gateway without the text-deltas cap", async () => {
    // A gateway whose hello lists no capabilities: OpenClaw's frames (agent assistant deltas, chat
    // deltas with the whole message), the reply printed once.
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await new Promise((done) => server.once("listening", done));
    server.on("connection", (ws) => {
      let seq = 0;
      const send = (frame: object) => ws.send(JSON.stringify(frame));
      const event = (name: string, payload: object) =>
        send({ type: "event", event: name, payload, seq: ++seq });
      send({ type: "event", event: "connect.challenge", payload: { nonce: "n", ts: 1 } });
      ws.on("message", (data) => {
        const req = JSON.parse(data.toString()) as { id: string; method: string; params: Loose };
        const hello = { type: "hello-ok", protocol: 4, features: { methods: [], events: [] } };
        if (req.method === "connect") send({ type: "res", id: req.id, ok: true, payload: hello });
        if (req.method !== "agent") return;
        const runId = req.params.idempotencyKey;
        send({ type: "res", id: req.id, ok: true, payload: { runId, status: "accepted" } });
        let text = "";
        for (const delta of ["Old ", "gateway ", "reply"]) {
          text += delta;
          event("agent", { runId, stream: "assistant", data: { text, delta } });
          // The last chat delta is held (its text comes with the chat final only).
          const message = { role: "assistant", content: [{ type: "text", text }] };
          if (delta !== "reply")
            event("chat", { runId, state: "delta", deltaText: delta, message });
        }
        const final = { runId, status: "ok", result: { payloads: [{ text }] } };
        send({ type: "res", id: req.id, ok: true, payload: final });
      });
    });
    try {
      box = await createGatewaySandbox();
      const { port } = server.address() as { port: number };
      const res = await cli(agentRun as Run, {
        env: target(box).env,
        opts: { url: `ws://127.0.0.1:${port}`, message: "hi" },
      });
      expect(res.code).toBe(0);
      expect(res.stdout).toBe("Old gateway reply\n");
    } finally {
      for (const client of server.clients) client.terminate();
      await new Promise((done) => server.close(done));
    }
  });

  it("exits 1 when the run does not end ok", async () => {
    box = await createGatewaySandbox();
    box.fake.status(401, { error: { message: "invalid api key" } });
    const { env, url } = target(box);
    const res = await cli(agentRun as Run, { env, opts: { url, message: "hi" } });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("run error");
  });

  it("suggests --local when the gateway is not reachable", async () => {
    const url = `ws://127.0.0.1:${await closedPort()}`;
    box = await createGatewaySandbox();
    const res = await cli(agentRun as Run, { env: box.env, opts: { url, message: "hi" } });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`gateway not reachable at ${url}`);
    expect(res.stderr).toContain("--local");
  });
});
