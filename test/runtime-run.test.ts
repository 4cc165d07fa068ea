// runAgent end to end: the real loop, tools, session store and transcript against the fake
// OpenAI-compatible server on 127.0.0.1 — replies, tool round trips, failover, policy, abort, timeout.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveConfig } from "../src/config/resolve.js";
import { compactSessionNow, type RunEvent } from "../src/runtime/run/index.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "./helpers/runtime-sandbox.js";

let sb: RuntimeSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

function transcriptLines(
  stateDir: string,
  sessionsJsonKey = "agent:main:main",
): Array<Record<string, unknown>> {
  const dir = join(stateDir, "agents", "main", "sessions");
  const index = JSON.parse(readFileSync(join(dir, "sessions.json"), "utf8"));
  const file =
    index[sessionsJsonKey].sessionFile ?? join(dir, `${index[sessionsJsonKey].sessionId}.jsonl`);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("runAgent", () => {
  it("answers, streams deltas, writes the transcript and updates the session", async () => {
    sb = await createRuntimeSandbox();
    sb.fake.text("Hello <think>pondering</think>there!", { chunks: 3 });
    const handle = sb.run({ sessionKey: "agent:main:main", message: "hi" });
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);
    expect(result).toMatchObject({ status: "ok", provider: "fake", model: "m1", failovers: [] });
    expect(result.payloads).toEqual([{ text: "Hello there!", media: [], voice: false }]);
    expect(events[0]).toMatchObject({
      type: "lifecycle",
      phase: "start",
      sessionKey: "agent:main:main",
    });
    expect(events.filter((e) => e.type === "assistant_delta").length).toBeGreaterThan(1);
    expect(events.at(-1)).toMatchObject({ type: "lifecycle", phase: "end", status: "ok" });
    await sb.deps.stores.closeAll();
    const lines = transcriptLines(sb.stateDir);
    expect(lines[0]).toMatchObject({ type: "session" });
    const roles = lines
      .filter((l) => l.type === "message")
      .map((l) => (l.message as { role: string }).role);
    expect(roles).toEqual(["user", "assistant"]);
    const body = sb.fake.chatRequests[0].body as { messages: Array<{ role: string }> };
    expect(body.messages[0].role).toBe("system");
  });

  it("runs a tool round trip in the workspace", async () => {
    sb = await createRuntimeSandbox();
    mkdirSync(sb.workspace, { recursive: true });
    writeFileSync(join(sb.workspace, "note.txt"), "the secret word is pincer\n");
    sb.fake.toolCall("read", { path: "note.txt" });
    sb.fake.text("The word is pincer.");
    const handle = sb.run({ sessionKey: "agent:main:main", message: "read note.txt" });
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);
    expect(result.payloads[0].text).toBe("The word is pincer.");
    expect(events.find((e) => e.type === "tool_end")).toMatchObject({
      toolName: "read",
      isError: false,
    });
    const second = sb.fake.chatRequests[1].body as {
      messages: Array<{ role: string; content: unknown }>;
    };
    const toolMessage = second.messages.find((m) => m.role === "tool");
    expect(JSON.stringify(toolMessage?.content)).toContain("the secret word is pincer");
  });

  it("fails over to the fallback model on a 500 and records the switch", async () => {
    sb = await createRuntimeSandbox(() => ({
      agents: {
        defaults: { model: { primary: "fake/m1", fallbacks: ["fake/m2"] } },
        list: [{ id: "main" }],
      },
    }));
    sb.fake.status(500, { error: { message: "upstream overloaded" } });
    sb.fake.text("from the fallback");
    const handle = sb.run({ sessionKey: "agent:main:main", message: "hi" });
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);
    expect(result).toMatchObject({ status: "ok", model: "m2" });
    expect(result.failovers).toHaveLength(1);
    expect(result.failovers[0]).toMatchObject({
      scope: "model",
      from: { model: "fake/m1" },
      to: { model: "fake/m2" },
    });
    expect(events.some((e) => e.type === "failover")).toBe(true);
    await sb.deps.stores.closeAll();
    expect(transcriptLines(sb.stateDir).some((l) => l.customType === "pincer:failover")).toBe(true);
  });

  it("ends the run instead of falling back to a model the policy forbids", async () => {
    sb = await createRuntimeSandbox(() => ({
      agents: {
        defaults: { model: { primary: "fake/m1", fallbacks: ["fake/m2"] } },
        list: [{ id: "main" }],
      },
    }));
    // Validation refuses such a config; the run checks again in case the config changed under it.
    const cfg = sb.deps.config.config;
    sb.deps.config = resolveConfig({
      config: {
        ...cfg,
        agents: {
          ...cfg.agents,
          list: [{ id: "main", modelPolicy: { allow: ["fake/m1"], onMismatch: "fail" } }],
        },
      },
      paths: sb.deps.paths,
    });
    sb.fake.status(503);
    const result = await sb.run({ sessionKey: "agent:main:main", message: "hi" }).result;
    expect(result.status).toBe("error");
    expect(result.error).toContain("fallback refused: model fake/m2 is not in modelPolicy.allow");
    expect(sb.fake.chatRequests).toHaveLength(1);
  });

  it("records the model in the transcript once, not on every turn", async () => {
    sb = await createRuntimeSandbox();
    sb.fake.text("first").text("second");
    await sb.run({ sessionKey: "agent:main:main", message: "one" }).result;
    await sb.run({ sessionKey: "agent:main:main", message: "two" }).result;
    await sb.deps.stores.closeAll();
    const types = transcriptLines(sb.stateDir).map((line) => line.type);
    expect(types).toEqual(["session", "model_change", "message", "message", "message", "message"]);
  });

  it("serializes two messages to one session", async () => {
    sb = await createRuntimeSandbox();
    sb.fake.text("first", { delayMs: 50 });
    sb.fake.text("second");
    const a = sb.run({ sessionKey: "agent:main:main", message: "one" });
    const b = sb.run({ sessionKey: "agent:main:main", message: "two" });
    const [ra, rb] = await Promise.all([a.result, b.result]);
    expect([ra.payloads[0].text, rb.payloads[0].text]).toEqual(["first", "second"]);
    // The second request already carries the first exchange: the runs did not overlap.
    const second = sb.fake.chatRequests[1].body as { messages: Array<{ role: string }> };
    expect(second.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
  });

  it("steer mode: a queued message skips the remaining tool calls and joins the run", async () => {
    sb = await createRuntimeSandbox();
    sb.fake.toolCalls([
      { name: "exec", args: { command: "echo one" } },
      { name: "exec", args: { command: "echo two" } },
    ]);
    sb.fake.text("done");
    const pending: Array<{ text: string }> = [];
    const steering = {
      hasPendingSteering: () => pending.length > 0,
      drainSteering: () => pending.splice(0),
    };
    const handle = sb.run({ sessionKey: "agent:main:main", message: "run both", steering });
    // The user writes again while the first command runs.
    for await (const event of handle.events) {
      if (event.type === "tool_start" && pending.length === 0)
        pending.push({ text: "actually, stop and say hi" });
    }
    const result = await handle.result;
    expect(result.status).toBe("ok");
    const second = sb.fake.chatRequests[1].body as {
      messages: Array<{ role: string; content: unknown }>;
    };
    const tools = second.messages.filter((m) => m.role === "tool");
    expect(tools).toHaveLength(2);
    expect(JSON.stringify(tools)).toContain("Skipped due to queued user message.");
    expect(JSON.stringify(second.messages.at(-1))).toContain("actually, stop and say hi");
  });

  it("compacts once on a context overflow, then retries", async () => {
    sb = await createRuntimeSandbox(() => ({
      agents: { defaults: { compaction: { keepRecentTokens: 1 } }, list: [{ id: "main" }] },
    }));
    sb.fake.text("the first answer, long enough to be worth summarizing");
    expect((await sb.run({ sessionKey: "agent:main:main", message: "first" }).result).status).toBe(
      "ok",
    );
    sb.fake.status(400, {
      error: { message: "This model's maximum context length is 32000 tokens" },
    });
    sb.fake.text("SUMMARY: the user asked first, we answered");
    sb.fake.text("answer after compaction");
    const handle = sb.run({ sessionKey: "agent:main:main", message: "second" });
    const [events, result] = await Promise.all([collect(handle.events), handle.result]);
    expect(result.payloads[0]?.text).toBe("answer after compaction");
    expect(events.find((e) => e.type === "compaction")).toMatchObject({ ok: true });
    await sb.deps.stores.closeAll();
    const compaction = transcriptLines(sb.stateDir).find((l) => l.type === "compaction");
    expect(compaction).toMatchObject({ summary: "SUMMARY: the user asked first, we answered" });
    const retry = sb.fake.chatRequests.at(-1)?.body as { messages: Array<{ content: unknown }> };
    expect(JSON.stringify(retry.messages)).toContain("SUMMARY: the user asked first");
  });

  it("prunes old tool results from the prompt, never from the transcript", async () => {
    sb = await createRuntimeSandbox(() => ({
      agents: { defaults: { contextPruning: { keepLastAssistants: 1 } }, list: [{ id: "main" }] },
    }));
    mkdirSync(sb.workspace, { recursive: true });
    writeFileSync(join(sb.workspace, "note.txt"), `bulky tool output ${"x".repeat(500)}\n`);
    sb.fake.toolCall("read", { path: "note.txt" });
    sb.fake.text("read it");
    await sb.run({ sessionKey: "agent:main:main", message: "read note.txt" }).result;
    sb.fake.text("ok");
    await sb.run({ sessionKey: "agent:main:main", message: "thanks" }).result;
    const last = sb.fake.chatRequests.at(-1)?.body as {
      messages: Array<{ role: string; content: unknown }>;
    };
    const tool = last.messages.find((m) => m.role === "tool");
    expect(JSON.stringify(tool?.content)).not.toContain("bulky tool output");
    await sb.deps.stores.closeAll();
    expect(JSON.stringify(transcriptLines(sb.stateDir))).toContain("bulky tool output");
  });

  it("compacts on request, in the session's lane", async () => {
    sb = await createRuntimeSandbox(() => ({
      agents: { defaults: { compaction: { keepRecentTokens: 1 } }, list: [{ id: "main" }] },
    }));
    sb.fake.text("a long first answer about many things");
    await sb.run({ sessionKey: "agent:main:main", message: "first" }).result;
    sb.fake.text("short reply");
    await sb.run({ sessionKey: "agent:main:main", message: "second" }).result;
    sb.fake.text("SUMMARY: two exchanges");
    const result = await compactSessionNow(sb.deps, { sessionKey: "agent:main:main" });
    expect(result).toMatchObject({ ok: true });
    const missing = await compactSessionNow(sb.deps, { sessionKey: "agent:main:nope" });
    expect(missing).toEqual({ ok: false, error: "no session agent:main:nope" });
    await sb.deps.stores.closeAll();
    expect(transcriptLines(sb.stateDir).some((l) => l.type === "compaction")).toBe(true);
  });

  it("stops on abort and on timeout", async () => {
    sb = await createRuntimeSandbox();
    sb.fake.hang();
    const controller = new AbortController();
    const aborted = sb.run({
      sessionKey: "agent:main:a",
      message: "hi",
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    expect((await aborted.result).status).toBe("aborted");
    sb.fake.hang();
    const timed = await sb.run({ sessionKey: "agent:main:b", message: "hi", timeoutSeconds: 0.2 })
      .result;
    expect(timed.status).toBe("timeout");
    expect(timed.error).toContain("timed out");
  });
});
