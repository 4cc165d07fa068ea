// Cron end to end through the real gateway (port 0, temp state), the fake Bot API and the fake
// model: an isolated job forced with cron.run and announced to a Telegram chat, a main-session
// system event that fires on its own short schedule and is deleted after success, the `cron` tool
// called by the model creating a reminder that fires back into the same chat, and failures kept in
// the job, the run log and the `cron` event.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import {
  createGatewaySandbox,
  type Frame,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

const TOKEN = "111:cron-bot";
const ALICE_CHAT = 111;
const OTHER_CHAT = 4242;

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
afterEach(async () => {
  await box?.close();
  await telegram?.close();
  box = undefined;
  telegram = undefined;
});

async function start(cron: Record<string, unknown> = {}) {
  const fakeTelegram = await startFakeTelegram();
  telegram = fakeTelegram;
  fakeTelegram.addBot(TOKEN, { id: 111000, username: "pincer_cron_bot" });
  box = await createGatewaySandbox({
    config: () => ({
      channels: {
        telegram: {
          apiRoot: fakeTelegram.apiRoot,
          accounts: { default: { botToken: TOKEN, dmPolicy: "open", allowFrom: ["*"] } },
        },
      } as OpenClawConfig["channels"],
      agents: { list: [{ id: "main", heartbeat: { every: "0m" } }] },
      cron,
    }),
  });
  await fakeTelegram.waitForCall("getUpdates", (c) => c.token === TOKEN);
  const client = await box.connect();
  return { sandbox: box, fakeTelegram, client };
}

function sendsTo(fake: FakeTelegram, chatId: number) {
  return fake.callsOf("sendMessage", TOKEN).filter((c) => Number(c.params.chat_id) === chatId);
}

function waitForSend(fake: FakeTelegram, chatId: number, nth = 1) {
  return fake.waitForCall("sendMessage", (c) => sendsTo(fake, chatId).indexOf(c) === nth - 1);
}

async function call(client: TestClient, method: string, params: unknown): Promise<Loose> {
  const res = await client.request(method, params);
  if (!res.ok) throw new Error(`${method} failed: ${JSON.stringify(res.error)}`);
  return payloadOf(res);
}

function cronEvent(client: TestClient, jobId: string, action: string): Promise<Frame> {
  return client.waitFor(
    (f) => f.event === "cron" && payloadOf(f).jobId === jobId && payloadOf(f).action === action,
  );
}

function userText(sandbox: GatewaySandbox, nth: number): string {
  const body = sandbox.fake.chatRequests[nth]?.body as { messages?: Loose[] } | undefined;
  const users = (body?.messages ?? []).filter((m) => m.role === "user");
  const last = users.at(-1)?.content;
  return typeof last === "string" ? last : JSON.stringify(last);
}

describe("cron through the gateway", () => {
  it("forces an isolated job with cron.run and announces its reply to the Telegram chat", async () => {
    const { sandbox, fakeTelegram, client } = await start();
    const job = await call(client, "cron.add", {
      name: "Morning brief",
      schedule: { kind: "every", everyMs: 3_600_000 },
      sessionTarget: "isolated",
      payload: { kind: "agentTurn", message: "Summarize overnight updates." },
      delivery: { mode: "announce", channel: "telegram", to: String(OTHER_CHAT) },
    });
    expect(job).toMatchObject({ name: "Morning brief", enabled: true, wakeMode: "now" });
    expect(job.state.nextRunAtMs).toBeGreaterThan(job.createdAtMs);
    const listed = await call(client, "cron.list", {});
    expect(listed.jobs.map((j: Loose) => j.id)).toEqual([job.id]);

    sandbox.fake.text("Overnight: nothing broke.");
    const finished = cronEvent(client, job.id, "finished");
    const ran = await call(client, "cron.run", { id: job.id });
    expect(ran).toMatchObject({ ok: true, ran: true, enqueued: true });
    const sent = await waitForSend(fakeTelegram, OTHER_CHAT);
    expect(sent.params.text).toBe("Overnight: nothing broke.");
    expect(payloadOf(await finished)).toMatchObject({
      status: "ok",
      delivered: true,
      deliveryStatus: "delivered",
      sessionKey: `agent:main:cron:${job.id}`,
      runId: ran.runId,
    });
    expect(userText(sandbox, 0)).toContain(
      `[cron:${job.id} Morning brief] Summarize overnight updates.`,
    );

    const runs = await call(client, "cron.runs", { id: job.id });
    expect(runs.entries).toHaveLength(1);
    expect(runs.entries[0]).toMatchObject({
      jobId: job.id,
      status: "ok",
      delivered: true,
      jobName: "Morning brief",
    });
    const stored = JSON.parse(readFileSync(join(sandbox.stateDir, "cron", "jobs.json"), "utf8"));
    expect(stored.version).toBe(1);
    expect(stored.jobs[0]).toMatchObject({
      id: job.id,
      state: { lastStatus: "ok", lastDelivered: true },
    });
    // A recurring job stays, its next run an hour after this one.
    const after = (await call(client, "cron.list", {})).jobs[0];
    expect(after.state.nextRunAtMs).toBeGreaterThan(after.state.lastRunAtMs);
  });

  it("runs a main-session system event on its short schedule, replies where the session last talked, then deletes it", async () => {
    const { sandbox, fakeTelegram, client } = await start();
    sandbox.fake.text("Hi Alice.");
    fakeTelegram.pushMessage(TOKEN, privateMessage({ text: "hello" }));
    await waitForSend(fakeTelegram, ALICE_CHAT);

    sandbox.fake.text("Reminder: stretch your legs.");
    const job = await call(client, "cron.add", {
      name: "Stretch",
      schedule: { kind: "at", at: new Date(Date.now() + 300).toISOString() },
      sessionTarget: "main",
      payload: { kind: "systemEvent", text: "Remind Alice to stretch." },
    });
    expect(job.deleteAfterRun).toBe(true);
    const finished = await cronEvent(client, job.id, "finished");
    expect(payloadOf(finished)).toMatchObject({
      status: "ok",
      deliveryStatus: "delivered",
      sessionKey: "agent:main:main",
    });
    expect((await waitForSend(fakeTelegram, ALICE_CHAT, 2)).params.text).toBe(
      "Reminder: stretch your legs.",
    );
    expect(userText(sandbox, 1)).toMatch(
      /^System: Remind Alice to stretch\.\n\nRead HEARTBEAT\.md/,
    );
    await cronEvent(client, job.id, "removed");
    expect((await call(client, "cron.list", { includeDisabled: true })).jobs).toEqual([]);
    expect((await call(client, "cron.runs", { id: job.id })).entries[0]).toMatchObject({
      status: "ok",
    });
  });

  it("lets the model set a reminder with the cron tool, which fires back into the same chat", async () => {
    const { sandbox, fakeTelegram, client } = await start();
    const at = new Date(Date.now() + 400).toISOString();
    sandbox.fake.toolCall("cron", {
      action: "add",
      job: {
        name: "Tea",
        schedule: { kind: "at", at },
        sessionTarget: "isolated",
        payload: { kind: "agentTurn", message: "Remind the user: the tea is ready." },
      },
    });
    sandbox.fake.text("Okay, I will remind you.");
    sandbox.fake.text("Your tea is ready!");
    const added = client.waitFor((f) => f.event === "cron" && payloadOf(f).action === "added");
    fakeTelegram.pushMessage(
      TOKEN,
      privateMessage({ text: "remind me in a moment about the tea" }),
    );
    expect((await waitForSend(fakeTelegram, ALICE_CHAT)).params.text).toBe(
      "Okay, I will remind you.",
    );
    const jobId = payloadOf(await added).jobId as string;
    const toolResult = JSON.stringify(sandbox.fake.chatRequests[1]?.body);
    expect(toolResult).toContain(jobId);
    const fired = await waitForSend(fakeTelegram, ALICE_CHAT, 2);
    expect(fired.params.text).toBe("Your tea is ready!");
    expect(userText(sandbox, 2)).toContain(
      `[cron:${jobId} Tea] Remind the user: the tea is ready.`,
    );
    const finished = await cronEvent(client, jobId, "finished");
    expect(payloadOf(finished)).toMatchObject({ status: "ok", deliveryStatus: "delivered" });
  });

  it("keeps a failure visible: a one-shot whose announce has no target is disabled with its error", async () => {
    const { sandbox, client } = await start();
    sandbox.fake.text("Done.");
    const job = await call(client, "cron.add", {
      name: "Nowhere",
      schedule: { kind: "at", at: "2020-01-01T00:00:00Z" },
      sessionTarget: "isolated",
      payload: { kind: "agentTurn", message: "Say done." },
    });
    const finished = payloadOf(await cronEvent(client, job.id, "finished"));
    expect(finished).toMatchObject({ status: "error", deliveryStatus: "not-delivered" });
    expect(finished.error).toMatch(/no delivery target/);
    const kept = (await call(client, "cron.list", { includeDisabled: true })).jobs[0];
    expect(kept).toMatchObject({ id: job.id, enabled: false, state: { lastStatus: "error" } });
    expect(kept.state.lastError).toMatch(/no delivery target/);
    expect(kept.state.nextRunAtMs).toBeUndefined();
  });

  it("answers bad input with an error naming the problem", async () => {
    const { client } = await start();
    const bad = async (params: unknown) => {
      const res = await client.request("cron.add", params);
      expect(res.ok).toBe(false);
      return String((res.error as Loose).message);
    };
    const base = {
      name: "x",
      sessionTarget: "isolated",
      payload: { kind: "agentTurn", message: "m" },
    };
    expect(
      await bad({ ...base, schedule: { kind: "cron", expr: "0 7 * * *", tz: "Nowhere/City" } }),
    ).toMatch(/schedule.tz "Nowhere\/City"/);
    expect(await bad({ ...base, schedule: { kind: "cron", expr: "99 * * * *" } })).toMatch(
      /schedule.expr/,
    );
    expect(
      await bad({ ...base, sessionTarget: "main", schedule: { kind: "every", everyMs: 1000 } }),
    ).toMatch(/sessionTarget "main" needs payload.kind "systemEvent"/);
    expect(
      await bad({ ...base, agentId: "ghost", schedule: { kind: "every", everyMs: 1000 } }),
    ).toMatch(/unknown agentId "ghost"/);
    const run = await client.request("cron.run", { id: "missing" });
    expect(String((run.error as Loose).message)).toMatch(/unknown cron job "missing"/);
  });
});
