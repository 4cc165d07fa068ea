// The WS turn journal through the real gateway (port 0, real ws clients, the fake model server),
// restarted on the same state dir: a turn cut by a shutdown stays accepted and resumes; a reply that
// landed before a crash is answered from the transcript; a turn that cannot be resumed is failed
// visibly (agent.wait, the session, the journal); chat.send turns are journaled too.
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type GatewayHandle, startGateway } from "../src/gateway/index.js";
import { openTurnJournal, turnJournalPath } from "../src/gateway/runs/turn-journal.js";
import { MAX_TURN_INTERRUPTIONS } from "../src/gateway/runs/turn-journal-recover.js";
import { writeFileAtomic } from "../src/lib/atomic-write.js";
import { silentLogger } from "../src/lib/logger.js";
import {
  connectParams,
  createGatewaySandbox,
  type GatewaySandbox,
  openClient,
  payloadOf,
  type TestClient,
} from "./helpers/gateway-sandbox.js";
import { auditState, pendingTurnKeys, readTurnJournal } from "./helpers/turn-audit.js";

let box: GatewaySandbox | undefined;
let restarted: GatewayHandle | undefined;
afterEach(async () => {
  await restarted?.close("test done");
  await box?.close();
  restarted = undefined;
  box = undefined;
});

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function restart(sandbox: GatewaySandbox): Promise<TestClient> {
  restarted = await startGateway({ env: sandbox.env, port: 0, watchConfig: false });
  const client = await openClient(restarted.url);
  const hello = await client.request("connect", connectParams());
  if (!hello.ok) throw new Error(`connect refused: ${JSON.stringify(hello.error)}`);
  return client;
}

/** Starts a sandbox whose model hangs, sends one turn, and shuts the gateway down mid-turn. */
async function cutByShutdown(params: { method: "agent" | "chat.send"; key: string }) {
  box = await createGatewaySandbox({ options: { drainTimeoutMs: 50 } });
  box.fake.hang();
  const client = await box.connect();
  const message = `question of ${params.key}`;
  const sent = await client.request(params.method, {
    message,
    idempotencyKey: params.key,
    sessionKey: "main",
  });
  expect(sent.ok).toBe(true);
  await waitUntil(() => box!.fake.chatRequests.length === 1, "the model call");
  await box.gw.close("restart");
  return { client, sent, message };
}

describe("WS turn journal through the gateway", () => {
  it("a turn cut by a shutdown stays accepted, resumes after the restart, and is answered once", async () => {
    const { client, sent } = await cutByShutdown({ method: "agent", key: "cut-1" });
    const told = client.responses(String(sent.id)).at(-1);
    expect(told?.error).toMatchObject({ code: "UNAVAILABLE", retryable: true });
    expect(pendingTurnKeys(box!.stateDir)).toEqual(["agent:cut-1"]);

    box!.fake.text("resumed answer");
    const next = await restart(box!);
    const waited = await next.request("agent.wait", { runId: "cut-1", timeoutMs: 10_000 }, 15_000);
    expect(payloadOf(waited)).toMatchObject({ runId: "cut-1", status: "ok" });
    const retry = await next.request("agent", { message: "again", idempotencyKey: "cut-1" });
    expect(payloadOf(retry).result.payloads[0].text).toBe("resumed answer");
    expect(box!.fake.chatRequests).toHaveLength(2);
    expect(auditState(box!.stateDir).runs.get("cut-1")).toMatchObject({ prompts: 1, replies: 1 });
    const history = await next.request("chat.history", { sessionKey: "main" });
    const users = payloadOf(history).messages.filter((m: { role: string }) => m.role === "user");
    expect(users).toHaveLength(1);
  });

  it("a reply that landed before the crash is answered from the transcript, without a model call", async () => {
    box = await createGatewaySandbox();
    box.fake.text("landed before the crash");
    const client = await box.connect();
    await client.request("agent", { message: "hi", idempotencyKey: "landed-1" });
    await client.request("agent.wait", { runId: "landed-1", timeoutMs: 10_000 }, 15_000);
    await box.gw.close("restart");
    // The state a kill -9 leaves between the transcript flush and the settle line.
    const path = turnJournalPath(box.stateDir);
    const lines = readFileSync(path, "utf8").split("\n");
    writeFileSync(path, lines.filter((line) => !line.includes('"type":"settled"')).join("\n"));
    expect(pendingTurnKeys(box.stateDir)).toEqual(["agent:landed-1"]);

    const next = await restart(box);
    const waited = await next.request("agent.wait", { runId: "landed-1", timeoutMs: 10_000 });
    expect(payloadOf(waited).status).toBe("ok");
    const retry = await next.request("agent", { message: "hi", idempotencyKey: "landed-1" });
    expect(payloadOf(retry).result.payloads[0].text).toBe("landed before the crash");
    expect(box.fake.chatRequests).toHaveLength(1);
    expect(auditState(box.stateDir).runs.get("landed-1")).toMatchObject({ prompts: 1, replies: 1 });
  });

  it("a turn cut while running by too many restarts is failed visibly, not resumed again", async () => {
    await cutByShutdown({ method: "agent", key: "loop-1" });
    // Earlier restarts already cut it while it ran, one short of the limit; this one reaches it.
    const journal = openTurnJournal({
      stateDir: box!.stateDir,
      logger: silentLogger,
      now: Date.now,
    });
    const [item] = journal.pending();
    const interruptions = MAX_TURN_INTERRUPTIONS - 1;
    await journal.accept(item!.key, { ...item!.data, interruptions });
    await journal.close();

    const next = await restart(box!);
    const waited = await next.request("agent.wait", { runId: "loop-1", timeoutMs: 10_000 });
    expect(payloadOf(waited)).toMatchObject({
      status: "error",
      error: expect.stringContaining(`${MAX_TURN_INTERRUPTIONS} times`),
    });
    const retry = await next.request("agent", { message: "x", idempotencyKey: "loop-1" });
    expect(payloadOf(retry)).toMatchObject({ runId: "loop-1", status: "error" });
    expect(box!.fake.chatRequests).toHaveLength(1);
    const history = await next.request("chat.history", { sessionKey: "main" });
    const last = payloadOf(history).messages.at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "error" });
    expect(last.errorMessage).toContain(`${MAX_TURN_INTERRUPTIONS} times`);
    const settled = readTurnJournal(box!.stateDir).filter((line) => line.type === "settled");
    expect(settled.at(-1)).toMatchObject({
      key: "agent:loop-1",
      data: { wait: { status: "error" } },
    });
    expect(auditState(box!.stateDir).runs.get("loop-1")).toMatchObject({ prompts: 1, replies: 0 });
  });

  it("a turn whose agent is gone after the restart is failed visibly", async () => {
    await cutByShutdown({ method: "agent", key: "gone-1" });
    const config = JSON.parse(readFileSync(box!.configPath, "utf8"));
    config.agents.list = [{ id: "other" }];
    writeFileAtomic(box!.configPath, JSON.stringify(config));

    const next = await restart(box!);
    const waited = await next.request("agent.wait", { runId: "gone-1", timeoutMs: 10_000 });
    expect(payloadOf(waited)).toMatchObject({
      status: "error",
      error: expect.stringMatching(/main/),
    });
    expect(pendingTurnKeys(box!.stateDir)).toEqual([]);
    const retry = await next.request("agent", { message: "x", idempotencyKey: "gone-1" });
    expect(payloadOf(retry)).toMatchObject({ runId: "gone-1", status: "error" });
    expect(box!.fake.chatRequests).toHaveLength(1);
  });

  it("chat.send turns are journaled: resumed after the restart, the retry gets the outcome", async () => {
    const { message } = await cutByShutdown({ method: "chat.send", key: "chat-1" });
    expect(pendingTurnKeys(box!.stateDir)).toEqual(["chat:chat-1"]);
    box!.fake.text("chat answer");
    const next = await restart(box!);
    const retry = await next.request("chat.send", {
      sessionKey: "main",
      message,
      idempotencyKey: "chat-1",
    });
    expect(["in_flight", "ok"]).toContain(payloadOf(retry).status);
    await next.request("agent.wait", { runId: "chat-1", timeoutMs: 10_000 }, 15_000);
    const again = await next.request("chat.send", {
      sessionKey: "main",
      message,
      idempotencyKey: "chat-1",
    });
    expect(payloadOf(again)).toEqual({ runId: "chat-1", status: "ok" });
    expect(box!.fake.chatRequests).toHaveLength(2);
    const history = await next.request("chat.history", { sessionKey: "main" });
    const roles = payloadOf(history).messages.map((m: { role: string }) => m.role);
    expect(roles.filter((role: string) => role === "user")).toHaveLength(1);
    expect(payloadOf(history).messages.at(-1).content[0].text).toBe("chat answer");
  });
});
