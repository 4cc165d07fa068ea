// A run that fails (here: its agent's workspace cannot be created, so it throws before any model
// call) ends as `error` with its cause everywhere it is reported: the retry of a chat.send or
// `agent` key, agent.wait, the `chat` event, the gateway log, and a channel message's inbound journal
// line (`run-failed`, not `dropped`: nothing aborted it). A channel turn is started and tracked as
// one gateway run, like a WS turn: its events, agent.wait and chat.abort (then it settles `dropped`).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { inboundJournalPath } from "../src/channels/inbound/inbound-journal.js";
import { createEntryLogger, type Logger } from "../src/lib/logger.js";
import { createGatewaySandbox, type GatewaySandbox, payloadOf } from "./helpers/gateway-sandbox.js";
import { startOpenMemoryGateway } from "./helpers/memory-gateway.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

interface LogLine {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

function recordingLogger(lines: LogLine[]): Logger {
  return createEntryLogger((entry) => {
    lines.push({ level: entry.level, message: entry.msg, fields: entry.fields });
  });
}

/** The sandbox's agent workspace path taken by a file: every run throws at its start. */
function breakWorkspace(sandbox: GatewaySandbox): void {
  writeFileSync(join(sandbox.home, "workspace"), "not a directory");
}

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("a run that fails", () => {
  it("answers a chat.send retry with error and its cause, and logs it", async () => {
    const lines: LogLine[] = [];
    box = await createGatewaySandbox({ options: { logger: recordingLogger(lines) } });
    breakWorkspace(box);
    const client = await box.connect();
    const params = { sessionKey: "main", message: "hi", idempotencyKey: "fail-1" };
    const first = await client.request("chat.send", params);
    expect(payloadOf(first)).toMatchObject({ runId: "fail-1", status: "started" });
    const event = await client.waitFor(
      (f) =>
        f.event === "chat" && payloadOf(f).runId === "fail-1" && payloadOf(f).state !== "delta",
    );
    expect(payloadOf(event)).toMatchObject({ state: "error" });
    expect(String(payloadOf(event).errorMessage)).toMatch(/EEXIST|ENOTDIR|exists/);
    const wait = await client.request("agent.wait", { runId: "fail-1", timeoutMs: 5000 });
    expect(payloadOf(wait)).toMatchObject({ runId: "fail-1", status: "error" });
    const retry = await client.request("chat.send", params);
    expect(payloadOf(retry)).toMatchObject({ runId: "fail-1", status: "error" });
    expect(String(payloadOf(retry).error)).toMatch(/EEXIST|ENOTDIR|exists/);
    const logged = lines.find((l) => l.level === "error" && l.fields.runId === "fail-1");
    expect(logged?.fields).toMatchObject({ sessionKey: "agent:main:main", agentId: "main" });
    expect(String(logged?.fields.error)).toMatch(/EEXIST|ENOTDIR|exists/);
  });

  it("answers the agent method and its retry with error and its cause", async () => {
    box = await createGatewaySandbox();
    breakWorkspace(box);
    const client = await box.connect();
    const params = { sessionKey: "main", message: "hi", idempotencyKey: "fail-2" };
    const ack = await client.request("agent", params);
    const final = await client.waitFor(
      (f) => f.type === "res" && f.id === ack.id && payloadOf(f).status !== "accepted",
    );
    expect(payloadOf(final)).toMatchObject({ runId: "fail-2", status: "error" });
    expect(String(payloadOf(final).summary)).toMatch(/EEXIST|ENOTDIR|exists/);
    const retry = await client.request("agent", params);
    expect(payloadOf(retry)).toMatchObject({ runId: "fail-2", status: "error" });
  });

  it("settles a channel message as run-failed (not dropped) and logs the turn", async () => {
    const lines: LogLine[] = [];
    const started = await startOpenMemoryGateway({ options: { logger: recordingLogger(lines) } });
    box = started.box;
    const { memory } = started;
    breakWorkspace(box);
    await memory.inject({ peer: { kind: "direct", id: "5" }, text: "hello" });
    const path = inboundJournalPath(box.stateDir);
    const settled = () =>
      readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => line.includes('"settled"'))
        .map((line) => JSON.parse(line) as { outcome: string });
    await waitUntil(() => settled().length === 1, "the message's settle line");
    expect(settled().map((line) => line.outcome)).toEqual(["run-failed"]);
    const turn = lines.find((l) => l.message === "channel turn failed");
    expect(turn?.fields).toMatchObject({ channel: "memory", accountId: "default" });
    expect(String(turn?.fields.error)).toMatch(/EEXIST|ENOTDIR|exists/);
    expect(memory.sent).toHaveLength(0);
  });
});

describe("a channel turn", () => {
  it("is a gateway run like a WS turn: its events, agent.wait and chat.abort (settled dropped)", async () => {
    const started = await startOpenMemoryGateway();
    box = started.box;
    const { memory } = started;
    const client = await box.connect();
    box.fake.hang();
    await memory.inject({ peer: { kind: "direct", id: "5" }, text: "hello" });
    const start = await client.waitFor(
      (f) => f.event === "agent" && payloadOf(f).data?.phase === "start",
    );
    const { runId, sessionKey } = payloadOf(start);
    await waitUntil(() => box!.fake.chatRequests.length === 1, "the model call");
    const early = await client.request("agent.wait", { runId, timeoutMs: 10 });
    expect(payloadOf(early)).toMatchObject({ runId, status: "timeout" });
    const aborted = await client.request("chat.abort", { sessionKey });
    expect(payloadOf(aborted)).toMatchObject({ aborted: true, runIds: [runId] });
    await client.waitFor(
      (f) => f.event === "chat" && payloadOf(f).runId === runId && payloadOf(f).state === "aborted",
    );
    const wait = await client.request("agent.wait", { runId, timeoutMs: 5000 });
    expect(payloadOf(wait)).toMatchObject({ runId, status: "error" });
    const path = inboundJournalPath(box.stateDir);
    const outcomes = () =>
      readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => line.includes('"settled"'))
        .map((line) => (JSON.parse(line) as { outcome: string }).outcome);
    await waitUntil(() => outcomes().length === 1, "the message's settle line");
    expect(outcomes()).toEqual(["dropped"]);
  });
});
