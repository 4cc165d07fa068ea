// WS turns across kill -9 of the built gateway process (real sockets, the fake model server): an
// accepted turn is resumed after the restart and its reply lands once; a retry of its idempotencyKey
// gets the stored outcome (in flight, then the final) and never a second model call; the session
// index points at every transcript. Run `npm run build` first.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "./helpers/fake-openai.js";
import {
  connectedClient,
  type GatewayChild,
  gatewayChildren,
  waitUntil,
} from "./helpers/gateway-child.js";
import { payloadOf, TEST_TOKEN, type TestClient } from "./helpers/gateway-sandbox.js";
import { fakeProviderConfig } from "./helpers/runtime-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";
import { auditState, pendingTurnKeys } from "./helpers/turn-audit.js";

const children = gatewayChildren();
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await children.killAll();
  await fake?.close();
  fake = undefined;
});

function sandbox(baseUrl: string) {
  const home = makeTempDir("pincer-turns-");
  const stateDir = join(home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  const config = {
    models: fakeProviderConfig(baseUrl),
    gateway: { auth: { mode: "token", token: TEST_TOKEN } },
    agents: { defaults: { model: "fake/m1", workspace: join(home, "ws") }, list: [{ id: "main" }] },
  };
  writeFileSync(join(stateDir, "openclaw.json"), JSON.stringify(config));
  return { stateDir, env: { HOME: home, OPENCLAW_STATE_DIR: stateDir } };
}

async function start(
  env: Record<string, string>,
): Promise<{ gw: GatewayChild; client: TestClient }> {
  const gw = await children.start(env);
  return { gw, client: await connectedClient(gw.url) };
}

const kill = (gw: GatewayChild) => children.kill(gw);
const waitFor = (check: () => boolean) => waitUntil(check, "the fake model's calls", 15_000);

/** The user messages of a model request that carry `text`. */
function promptsIn(body: Record<string, unknown> | undefined, text: string): number {
  const messages = (body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages.filter((m) => m.role === "user" && JSON.stringify(m.content).includes(text))
    .length;
}

describe("WS turns across kill -9", () => {
  it("resumes a cut turn once; a retry of its key gets the stored outcome, no second run", async () => {
    fake = await startFakeOpenAI();
    const { stateDir, env } = sandbox(fake.baseUrl);
    fake.hang();
    const first = await start(env);
    const turn = { message: "remember 42", idempotencyKey: "turn-1", sessionKey: "main" };
    const ack = await first.client.request("agent", turn);
    expect(payloadOf(ack)).toMatchObject({ runId: "turn-1", status: "accepted" });
    await waitFor(() => fake!.chatRequests.length === 1);
    await kill(first.gw);
    expect(pendingTurnKeys(stateDir)).toEqual(["agent:turn-1"]);

    fake.text("I remember 42", { chunks: 3, delayMs: 150 });
    const second = await start(env);
    const retry = await second.client.request("agent", turn);
    expect(["in_flight", "ok"]).toContain(payloadOf(retry).status);
    expect(payloadOf(retry).runId).toBe("turn-1");
    const waited = await second.client.request("agent.wait", { runId: "turn-1" }, 20_000);
    expect(payloadOf(waited)).toMatchObject({ runId: "turn-1", status: "ok" });
    const again = await second.client.request("agent", turn);
    expect(payloadOf(again)).toMatchObject({ runId: "turn-1", status: "ok" });
    expect(payloadOf(again).result.payloads[0].text).toBe("I remember 42");
    // One cut call and one resumed call, whose context holds the prompt once.
    expect(fake.chatRequests).toHaveLength(2);
    expect(promptsIn(fake.chatRequests[1]?.body, "remember 42")).toBe(1);

    // After one more kill, the outcome is still the stored one.
    await kill(second.gw);
    const third = await start(env);
    const late = await third.client.request("agent", turn);
    expect(payloadOf(late)).toMatchObject({ runId: "turn-1", status: "ok" });
    const lateWait = await third.client.request("agent.wait", { runId: "turn-1", timeoutMs: 0 });
    expect(payloadOf(lateWait)).toMatchObject({ status: "ok", endedAt: expect.any(Number) });
    expect(fake.chatRequests).toHaveLength(2);
    const audit = auditState(stateDir);
    expect(audit.runs.get("turn-1")).toMatchObject({
      prompts: 1,
      replies: 1,
      text: "I remember 42",
    });
    expect(audit.orphans).toEqual([]);
    expect(pendingTurnKeys(stateDir)).toEqual([]);
  }, 90_000);

  it("resumes after the tool result it already has: the tool does not run twice", async () => {
    fake = await startFakeOpenAI();
    const { stateDir, env } = sandbox(fake.baseUrl);
    fake.toolCall("exec", { command: "echo ran >> ran.txt" });
    fake.hang();
    const first = await start(env);
    const turn = { message: "run the tool", idempotencyKey: "tool-1", sessionKey: "main" };
    await first.client.request("agent", turn);
    // The second model call comes after the tool result reached the transcript.
    await waitFor(() => fake!.chatRequests.length === 2);
    await kill(first.gw);

    fake.text("the tool ran");
    const second = await start(env);
    const waited = await second.client.request("agent.wait", { runId: "tool-1" }, 20_000);
    expect(payloadOf(waited).status).toBe("ok");
    expect(fake.chatRequests).toHaveLength(3);
    const resumed = fake.chatRequests[2]?.body?.messages as Array<{ role: string }>;
    expect(resumed.map((m) => m.role).slice(-3)).toEqual(["user", "assistant", "tool"]);
    expect(promptsIn(fake.chatRequests[2]?.body, "run the tool")).toBe(1);
    const ws = join(env.HOME, "ws");
    expect(readFileSync(join(ws, "ran.txt"), "utf8")).toBe("ran\n");
    expect(auditState(stateDir).runs.get("tool-1")).toMatchObject({ prompts: 1, replies: 1 });
  }, 90_000);

  it("across repeated kills every accepted turn ends once (or fails visibly); retries never rerun", async () => {
    const step = { kind: "text" as const, text: "done", chunks: 4, delayMs: 40 };
    fake = await startFakeOpenAI({ fallback: step, latencyMs: 80 });
    const { stateDir, env } = sandbox(fake.baseUrl);
    const kills = 8;
    const perRound = 6;
    const accepted: string[] = [];
    const cut = new Set<string>();
    let interruptions = 0;
    let retries = 0;
    let rerun = 0;
    for (let round = 0; round < kills; round++) {
      const { gw, client } = await start(env);
      // Every new turn makes at least one model call: kill after 1 to perRound of them.
      const target = fake.chatRequests.length + 1 + Math.floor(Math.random() * perRound);
      // The previous round's turns, retried at once: in flight or final, never a new run.
      for (const key of accepted.slice(-perRound)) {
        const res = await client.request("agent", { message: "retry", idempotencyKey: key });
        retries++;
        if (payloadOf(res).status === "accepted") rerun++;
      }
      for (let i = 0; i < perRound; i++) {
        const key = `r${round}-t${i}`;
        const sessionKey = i % 3 === 0 ? `fresh-${round}-${i}` : `peer-${i % 3}`;
        const message = `question ${round}.${i}`;
        const ack = await client.request("agent", { message, idempotencyKey: key, sessionKey });
        expect(payloadOf(ack).status).toBe("accepted");
        accepted.push(key);
      }
      await waitFor(() => fake!.chatRequests.length >= target);
      await kill(gw);
      const pending = pendingTurnKeys(stateDir);
      interruptions += pending.length;
      for (const key of pending) cut.add(key.replace(/^agent:/, ""));
      expect(auditState(stateDir).orphans).toEqual([]);
    }

    const { client } = await start(env);
    const outcomes = new Map<string, string>();
    for (const key of accepted) {
      const res = await client.request("agent.wait", { runId: key, timeoutMs: 30_000 }, 40_000);
      outcomes.set(key, payloadOf(res).status);
    }
    const calls = fake.chatRequests.length;
    for (const key of accepted) {
      const res = await client.request("agent", { message: "retry", idempotencyKey: key });
      retries++;
      expect(payloadOf(res).status).toBe(outcomes.get(key));
    }
    expect(fake.chatRequests.length).toBe(calls);
    expect(pendingTurnKeys(stateDir)).toEqual([]);

    const audit = auditState(stateDir);
    let failed = 0;
    let duplicated = 0;
    for (const key of accepted) {
      const run = audit.runs.get(key);
      if (run?.prompts !== 1 || run.replies > 1) duplicated++;
      if (outcomes.get(key) === "ok") expect(run).toMatchObject({ prompts: 1, replies: 1 });
      else {
        expect(cut.has(key)).toBe(true);
        failed++;
        expect(run?.errors).toBeGreaterThan(0);
      }
    }
    expect(audit.orphans).toEqual([]);
    console.log(
      `turn journal: ${accepted.length} accepted turns, ${cut.size} cut by ${kills} kills ` +
        `(${interruptions} times); ${cut.size - failed} resumed, ${failed} failed visibly, ` +
        `${duplicated} duplicated; ` +
        `${retries} retries, ${rerun} re-ran`,
    );
    expect(duplicated).toBe(0);
    expect(rerun).toBe(0);
  }, 240_000);
});
