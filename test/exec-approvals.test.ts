// Exec approvals and elevated mode end to end: the real gateway (port 0, temp state), the fake model
// calling `exec`, a real WS client, the CLI (`pincer approvals`) and the fake Telegram Bot API. A
// command off the allowlist pauses its tool call and raises a request; it is answered from the CLI
// (allow-always: persisted in exec-approvals.json and honoured next time; deny: a clear result and
// a second answer is refused), from `/approve` in the chat it was announced in, or left to time out.
// Elevated: an allowed sender's `/elevated on` lets a sandboxed agent's exec run on the host; another
// sender is refused and their session's exec stays refused.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import type { FakeOpenAI } from "./helpers/fake-openai.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { ALICE, type FakeUser, privateMessage } from "./helpers/fake-telegram-updates.js";
import {
  chatSendAndWait,
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";

const BOT_TOKEN = "111:approvals-bot";
const BOB: FakeUser = { id: 333, is_bot: false, first_name: "Bob", username: "bob" };

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
afterEach(async () => {
  await box?.close();
  await telegram?.close();
  box = undefined;
  telegram = undefined;
});

const APPROVALS: Partial<OpenClawConfig> = {
  tools: { exec: { security: "allowlist", ask: "on-miss" } },
};

/** Runs `pincer argv` in-process against the sandbox's gateway. */
function cli(sandbox: GatewaySandbox, argv: string[]) {
  return createCliSandbox(sandbox.env).run([
    ...argv,
    "--url",
    sandbox.gw.url,
    "--token",
    TEST_TOKEN,
  ]);
}

/** The tool results the model was sent in its latest request. */
function toolResults(fake: FakeOpenAI): string[] {
  const messages = (fake.chatRequests.at(-1)?.body?.messages ?? []) as Loose[];
  return messages
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

let runs = 0;
function startChat(client: Awaited<ReturnType<GatewaySandbox["connect"]>>, message: string) {
  return chatSendAndWait(client, { message, runId: `approvals-${++runs}` });
}

describe("exec approvals through the gateway", () => {
  it("a miss waits for `pincer approvals approve --always`; the pattern is persisted and honoured next time", async () => {
    box = await createGatewaySandbox({ config: () => APPROVALS });
    const client = await box.connect();
    box.fake.toolCall("exec", { command: "uname -s" }).text("first done");
    const turn = startChat(client, "which kernel?");
    const requested = payloadOf(
      await client.waitFor((f) => f.type === "event" && f.event === "exec.approval.requested"),
    );
    expect(requested.request).toMatchObject({ command: "uname -s", agentId: "main" });
    expect(requested.request.reason).toContain("uname is not on the allowlist");
    const listed = await cli(box, ["approvals", "list", "--json"]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).approvals.map((a: Loose) => a.id)).toEqual([requested.id]);
    const approved = await cli(box, ["approvals", "approve", requested.id.slice(0, 8), "--always"]);
    expect(approved).toMatchObject({ code: 0 });
    expect(approved.stdout).toContain(`Approval ${requested.id}: allow-always.`);
    const { event } = await turn;
    expect(event.state).toBe("final");
    const [result] = toolResults(box.fake);
    expect(result).toContain("Linux");
    expect(result).toContain("added to the allowlist");
    const resolved = payloadOf(
      await client.waitFor((f) => f.type === "event" && f.event === "exec.approval.resolved"),
    );
    expect(resolved).toMatchObject({
      id: requested.id,
      decision: "allow-always",
      resolvedBy: "cli",
    });
    const file = JSON.parse(readFileSync(join(box.stateDir, "exec-approvals.json"), "utf8"));
    expect(file.version).toBe(1);
    const patterns = file.agents.main.allowlist.map((e: Loose) => e.pattern);
    expect(patterns).toHaveLength(1);
    expect(patterns[0]).toMatch(/\/uname$/);

    // Next time the same executable runs at once: no new request.
    box.fake.toolCall("exec", { command: "uname -s" }).text("second done");
    const again = await startChat(client, "once more");
    expect(again.event.state).toBe("final");
    expect(toolResults(box.fake).at(-1)).toContain("Linux");
    expect(client.events("exec.approval.requested")).toHaveLength(1);
  });

  it("deny from the CLI gives the model a clear result; a second answer is refused", async () => {
    box = await createGatewaySandbox({ config: () => APPROVALS });
    const client = await box.connect();
    box.fake.toolCall("exec", { command: "id -u" }).text("ok");
    const turn = startChat(client, "who am i?");
    const requested = payloadOf(
      await client.waitFor((f) => f.type === "event" && f.event === "exec.approval.requested"),
    );
    expect((await cli(box, ["approvals", "deny", requested.id])).code).toBe(0);
    await turn;
    const [result] = toolResults(box.fake);
    expect(result).toContain("exec was denied by the user");
    expect(result).toContain("Nothing was run.");
    const second = await client.request("exec.approval.resolve", {
      id: requested.id,
      decision: "allow-once",
    });
    expect(second.ok).toBe(false);
    expect((second.error as Loose).message).toContain("already answered deny");
    const late = await cli(box, ["approvals", "approve", requested.id]);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain("already answered deny");
  });

  it("an unanswered request is denied at its timeout", async () => {
    box = await createGatewaySandbox({
      config: () => APPROVALS,
      options: { execApprovalTimeoutMs: 300 },
    });
    const client = await box.connect();
    box.fake.toolCall("exec", { command: "id -u" }).text("gave up");
    const { event } = await startChat(client, "who am i?");
    expect(event.state).toBe("final");
    const [result] = toolResults(box.fake);
    expect(result).toContain("approval timed out");
    const resolved = payloadOf(
      await client.waitFor((f) => f.type === "event" && f.event === "exec.approval.resolved"),
    );
    expect(resolved).toMatchObject({ decision: "deny", reason: "timeout" });
    expect((await cli(box, ["approvals", "list", "--json"])).stdout).toContain('"approvals": []');
  });

  it("sessions.patch elevatedLevel: OpenClaw's levels only, refused while elevated mode is off", async () => {
    box = await createGatewaySandbox({ config: () => APPROVALS });
    const client = await box.connect();
    box.fake.text("hello");
    await startChat(client, "hi");
    const key = "agent:main:main";
    const off = await client.request("sessions.patch", { key, elevatedLevel: "on" });
    expect(off.ok).toBe(false);
    expect((off.error as Loose).message).toContain("tools.elevated.enabled is not true");
    const bogus = await client.request("sessions.patch", { key, elevatedLevel: "sometimes" });
    expect(bogus.ok).toBe(false);
    const cleared = await client.request("sessions.patch", { key, elevatedLevel: "off" });
    expect(cleared.ok).toBe(true);
  });

  it("a client without operator.approvals gets no approval events and cannot resolve", async () => {
    box = await createGatewaySandbox({ config: () => APPROVALS });
    const reader = await box.connect({ scopes: ["operator.read", "operator.write"] });
    const admin = await box.connect();
    box.fake.toolCall("exec", { command: "id -u" }).text("ok");
    const runId = "scoped-run";
    const turn = chatSendAndWait(admin, { message: "uid?", runId });
    const requested = payloadOf(
      await admin.waitFor((f) => f.type === "event" && f.event === "exec.approval.requested"),
    );
    const res = await reader.request("exec.approval.resolve", {
      id: requested.id,
      decision: "allow-once",
    });
    expect(res.ok).toBe(false);
    expect((res.error as Loose).message).toContain("operator.approvals");
    const denied = await admin.request("exec.approval.resolve", {
      id: requested.id,
      decision: "deny",
    });
    expect(denied.ok).toBe(true);
    await turn;
    await reader.waitFor(
      (f) => f.event === "chat" && payloadOf(f).runId === runId && payloadOf(f).state === "final",
    );
    expect(reader.events("exec.approval.requested")).toHaveLength(0);
    expect(reader.events("exec.approval.resolved")).toHaveLength(0);
    expect(admin.events("exec.approval.resolved")).toHaveLength(1);
  });
});

/** Fake Bot API + gateway: Alice (allowFrom) may use commands; tools.elevated names only Alice. */
async function startTelegram(extra: Partial<OpenClawConfig> = {}) {
  const fake = await startFakeTelegram();
  telegram = fake;
  fake.addBot(BOT_TOKEN, { id: 111000, username: "pincer_approvals_bot" });
  box = await createGatewaySandbox({
    config: () => ({
      channels: {
        telegram: {
          apiRoot: fake.apiRoot,
          botToken: BOT_TOKEN,
          dmPolicy: "allowlist",
          allowFrom: [String(ALICE.id), String(BOB.id)],
        },
      } as OpenClawConfig["channels"],
      session: { dmScope: "per-channel-peer" },
      ...extra,
    }),
  });
  await fake.waitForCall("getUpdates", (c) => c.token === BOT_TOKEN);
  return fake;
}

function sentTo(fake: FakeTelegram, chatId: number, contains: string) {
  return fake.waitForCall(
    "sendMessage",
    (c) => Number(c.params.chat_id) === chatId && String(c.params.text).includes(contains),
  );
}

describe("exec approvals and elevated mode in a Telegram chat", () => {
  it("the request is announced in the chat and answered there with /approve", async () => {
    const fake = await startTelegram(APPROVALS);
    box!.fake.toolCall("exec", { command: "id -u" }).text("your uid is known");
    fake.pushMessage(BOT_TOKEN, privateMessage({ text: "what is my uid?" }));
    const announced = await sentTo(fake, ALICE.id, "Exec approval needed (");
    const text = String(announced.params.text);
    expect(text).toContain("id -u");
    const id = /Exec approval needed \(([0-9a-f]{8})\)/.exec(text)?.[1];
    expect(id).toBeDefined();
    fake.pushMessage(BOT_TOKEN, privateMessage({ text: `/approve ${id} allow-once` }));
    await sentTo(fake, ALICE.id, `Exec approval ${id} allowed once`);
    await sentTo(fake, ALICE.id, "your uid is known");
    expect(toolResults(box!.fake)[0]).toMatch(/Approved once[\s\S]*\d+/);
    // Answered in the chat: no echo of the outcome there.
    const echoes = fake
      .callsOf("sendMessage", BOT_TOKEN)
      .filter((c) => String(c.params.text).startsWith(`Exec approval ${id} answered`));
    expect(echoes).toHaveLength(0);
  });

  it("/approve from another chat cannot answer this chat's request", async () => {
    const fake = await startTelegram({ ...APPROVALS, session: { dmScope: "per-channel-peer" } });
    box!.fake.toolCall("exec", { command: "id -u" }).text("done");
    fake.pushMessage(BOT_TOKEN, privateMessage({ text: "uid?" }));
    const announced = await sentTo(fake, ALICE.id, "Exec approval needed (");
    const id = /\(([0-9a-f]{8})\)/.exec(String(announced.params.text))?.[1];
    fake.pushMessage(BOT_TOKEN, privateMessage({ text: `/approve ${id} allow-once`, from: BOB }));
    await sentTo(fake, BOB.id, "belongs to another conversation");
    fake.pushMessage(BOT_TOKEN, privateMessage({ text: `/approve ${id} deny` }));
    await sentTo(fake, ALICE.id, `Exec approval ${id} denied`);
    await sentTo(fake, ALICE.id, "done");
    expect(toolResults(box!.fake)[0]).toContain("exec was denied by the user");
  });

  it("elevated: Alice's /elevated on runs a sandboxed agent's exec on the host; Bob is refused", async () => {
    const fake = await startTelegram({
      agents: { defaults: { sandbox: { mode: "all" } } },
      tools: { elevated: { enabled: true, allowFrom: { telegram: [String(ALICE.id)] } } },
    });
    fake.pushMessage(BOT_TOKEN, privateMessage({ text: "/elevated on", from: BOB }));
    await sentTo(fake, BOB.id, "You are not allowed to use /elevated");
    box!.fake.toolCall("exec", { command: "echo bob-ran" }).text("bob turn");
    fake.pushMessage(BOT_TOKEN, privateMessage({ text: "run it", from: BOB }));
    await sentTo(fake, BOB.id, "bob turn");
    // Not elevated: the command stays in the sandbox (here none can start: no image, or no Docker).
    expect(toolResults(box!.fake)[0]).toContain("a sandboxed session never falls back to the host");

    fake.pushMessage(BOT_TOKEN, privateMessage({ text: "/elevated on" }));
    await sentTo(fake, ALICE.id, "Elevated mode set to on for this session");
    fake.pushMessage(BOT_TOKEN, privateMessage({ text: "/status" }));
    await sentTo(fake, ALICE.id, "Elevated: on");
    box!.fake.toolCall("exec", { command: "echo alice-ran" }).text("alice turn");
    fake.pushMessage(BOT_TOKEN, privateMessage({ text: "run it" }));
    await sentTo(fake, ALICE.id, "alice turn");
    expect(toolResults(box!.fake)[0]).toContain("alice-ran");
  });
});
