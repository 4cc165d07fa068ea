// Long polling through real grammY against the fake Bot API: the offset survives restarts (nothing
// redelivered, nothing lost, rejected updates polled again), platform failures end the run with a
// reason (the host's supervisor restarts it), and stop() / the host's signal end an in-flight poll.
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeStateDir, removeStateDir } from "../../../test/helpers/channel-account-context.js";
import { type FakeTelegram, startFakeTelegram } from "../../../test/helpers/fake-telegram.js";
import { privateMessage } from "../../../test/helpers/fake-telegram-updates.js";
import { type TelegramAccounts, telegramAccounts } from "../../../test/helpers/telegram-account.js";
import { offsetFilePath } from "./offset-store.js";
import { MAX_RECEIVE_ATTEMPTS } from "./polling.js";

const TOKEN = "123:main";

let fake: FakeTelegram;
let accounts: TelegramAccounts;
let stateDir: string;

beforeEach(async () => {
  fake = await startFakeTelegram();
  fake.addBot(TOKEN, { id: 9001, username: "pincer_bot" });
  accounts = telegramAccounts(fake);
  stateDir = makeStateDir();
});

afterEach(async () => {
  await accounts.stopAll();
  await fake.close();
  removeStateDir(stateDir);
});

const texts = (messages: Array<{ text: string }>) => messages.map((m) => m.text);

async function waitForPoll(offset: number | undefined) {
  await fake.waitForCall(
    "getUpdates",
    (c) => c.params.offset === offset && fake.pendingPolls(TOKEN) > 0,
  );
}

describe("telegram polling", () => {
  it("resumes after a restart at the persisted offset: nothing redelivered, nothing lost", async () => {
    const first = await accounts.start({ token: TOKEN, stateDir });
    for (const text of ["one", "two", "three"]) fake.pushMessage(TOKEN, privateMessage({ text }));
    expect(texts(await first.recorder.waitForReceived(3))).toEqual(["one", "two", "three"]);
    await first.runtime.stop();
    const stored = JSON.parse(readFileSync(offsetFilePath(stateDir, "default"), "utf8"));
    expect(stored).toEqual({ version: 1, botId: "9001", lastUpdateId: 3 });

    // Arrive while the gateway is down.
    fake.pushMessage(TOKEN, privateMessage({ text: "four" }));
    fake.pushMessage(TOKEN, privateMessage({ text: "five" }));
    const pollsBefore = fake.callsOf("getUpdates").length;
    const second = await accounts.start({ token: TOKEN, stateDir });
    expect(texts(await second.recorder.waitForReceived(2))).toEqual(["four", "five"]);
    await waitForPoll(6);
    expect(second.recorder.received).toHaveLength(2);
    // The restarted account asked from the stored position, not from scratch.
    expect(fake.callsOf("getUpdates")[pollsBefore]!.params.offset).toBe(4);
  });

  it("polls a rejected update again, in order, without advancing past it", async () => {
    const { recorder } = await accounts.start({ token: TOKEN, stateDir });
    let rejected = 0;
    recorder.onReceive = async (message) => {
      if (message.text === "two" && rejected === 0) {
        rejected += 1;
        throw new Error("queue full");
      }
    };
    for (const text of ["one", "two", "three"]) fake.pushMessage(TOKEN, privateMessage({ text }));
    expect(texts(await recorder.waitForReceived(3))).toEqual(["one", "two", "three"]);
    expect(rejected).toBe(1);
    expect(recorder.status().lastError).toBe("receive: queue full");
    // After the rejection the poll restarted at update 2.
    expect(fake.callsOf("getUpdates").some((c) => c.params.offset === 2)).toBe(true);
  });

  it("an update rejected when the gateway stops is delivered after the restart", async () => {
    const first = await accounts.start({ token: TOKEN, stateDir });
    first.recorder.onReceive = async (message) => {
      if (message.text === "two") throw new Error("shutting down");
    };
    fake.pushMessage(TOKEN, privateMessage({ text: "one" }));
    fake.pushMessage(TOKEN, privateMessage({ text: "two" }));
    await first.recorder.waitForReport((r) => r.lastError === "receive: shutting down");
    await first.runtime.stop();
    expect(texts(first.recorder.received)).toEqual(["one"]);

    const second = await accounts.start({ token: TOKEN, stateDir });
    expect(texts(await second.recorder.waitForReceived(1))).toEqual(["two"]);
  });

  it("a stop in the middle of a batch saves the offset of the last update handed on", async () => {
    const first = await accounts.start({ token: TOKEN, stateDir });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => {};
    const holding = new Promise<void>((resolve) => {
      entered = resolve;
    });
    first.recorder.onReceive = async (message) => {
      if (message.text !== "two") return;
      entered();
      await gate;
    };
    for (const text of ["one", "two", "three"]) fake.pushMessage(TOKEN, privateMessage({ text }));
    await holding;
    const stopped = first.runtime.stop();
    release();
    await stopped;
    expect(texts(first.recorder.received)).toEqual(["one", "two"]);
    const stored = JSON.parse(readFileSync(offsetFilePath(stateDir, "default"), "utf8"));
    expect(stored.lastUpdateId).toBe(2);

    const second = await accounts.start({ token: TOKEN, stateDir });
    expect(texts(await second.recorder.waitForReceived(1))).toEqual(["three"]);
    await waitForPoll(4);
    expect(texts(second.recorder.received)).toEqual(["three"]);
  });

  it(`skips an update after ${MAX_RECEIVE_ATTEMPTS} rejected tries so the bot does not stall`, async () => {
    const { recorder } = await accounts.start({ token: TOKEN, stateDir });
    let tries = 0;
    recorder.onReceive = async (message) => {
      if (message.text !== "poison") return;
      tries += 1;
      throw new Error("always fails");
    };
    fake.pushMessage(TOKEN, privateMessage({ text: "poison" }));
    fake.pushMessage(TOKEN, privateMessage({ text: "after" }));
    expect(texts(await recorder.waitForReceived(1))).toEqual(["after"]);
    expect(tries).toBe(MAX_RECEIVE_ATTEMPTS);
    expect(recorder.logs.some((l) => l.level === "error" && l.fields.updateId === 1)).toBe(true);
  });

  it("stop() ends an in-flight long poll and no receive happens afterwards", async () => {
    const { runtime, recorder } = await accounts.start({ token: TOKEN, stateDir });
    await waitForPoll(undefined);
    expect(fake.pendingPolls(TOKEN)).toBe(1);
    // The fake holds the poll for 30 s, longer than the test timeout: resolving proves the abort.
    await runtime.stop();
    // The server sees the aborted request close (the socket is really cut, not left to time out).
    await vi.waitFor(() => expect(fake.pendingPolls(TOKEN)).toBe(0));
    fake.pushMessage(TOKEN, privateMessage({ text: "late" }));
    const polls = fake.callsOf("getUpdates").length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.callsOf("getUpdates")).toHaveLength(polls);
    expect(recorder.received).toHaveLength(0);
    expect(recorder.status().connected).toBe(false);
  });

  it("the host's abort signal stops polling too", async () => {
    const { runtime, recorder } = await accounts.start({ token: TOKEN, stateDir });
    await waitForPoll(undefined);
    recorder.abort();
    await vi.waitFor(() => expect(fake.pendingPolls(TOKEN)).toBe(0));
    await runtime.stop();
  });

  it("a polling error ends the run with the reason (the host restarts it), never a rejection", async () => {
    fake.failNext("getUpdates", 1, { kind: "status", code: 502, description: "Bad Gateway" });
    const { runtime, recorder } = await accounts.start({ token: TOKEN, stateDir });
    expect(await runtime.ended).toEqual({
      failed: true,
      error: expect.stringMatching(/^getUpdates: .*Bad Gateway/),
    });
    expect(recorder.status()).toMatchObject({ connected: false, lastError: expect.any(String) });
  });

  it("a 429 ends the run with Telegram's retry_after", async () => {
    fake.failNext("getUpdates", 1, {
      kind: "status",
      code: 429,
      description: "Too Many Requests: retry after 7",
      retryAfter: 7,
    });
    const { runtime } = await accounts.start({ token: TOKEN, stateDir });
    expect(await runtime.ended).toMatchObject({ failed: true, retryAfterMs: 7_000 });
  });

  it.each([
    ["a body that is not JSON", { kind: "body" as const, body: "<html>oops" }],
    ["a result that is not an array", { kind: "body" as const, body: '{"ok":true,"result":42}' }],
    ["a null answer", { kind: "body" as const, body: "null" }],
    ["a dropped connection", { kind: "destroy" as const }],
  ])("%s on getUpdates ends the run as failed", async (_name, failure) => {
    fake.failNext("getUpdates", 1, failure);
    const { runtime } = await accounts.start({ token: TOKEN, stateDir });
    const end = await runtime.ended;
    expect(end).toMatchObject({ failed: true, error: expect.stringMatching(/^getUpdates: /) });
  });

  it("a getMe answer without a bot id ends the run as failed", async () => {
    fake.failNext("getMe", 1, { kind: "body", body: '{"ok":true,"result":{"username":"x"}}' });
    const { runtime } = await accounts.start({ token: TOKEN, stateDir, waitConnected: false });
    expect(await runtime.ended).toMatchObject({
      failed: true,
      error: expect.stringContaining("getMe: malformed result"),
    });
  });

  it("a rejected token stops polling with a clear lastError", async () => {
    const { runtime, recorder } = await accounts.start({
      token: "999:revoked",
      stateDir,
      waitConnected: false,
    });
    expect(await runtime.ended).toMatchObject({
      failed: true,
      error: expect.stringMatching(/401/),
    });
    expect(recorder.status().lastError).toMatch(/getMe: .*401.*check the bot token/);
    expect(fake.callsOf("getUpdates", "999:revoked")).toHaveLength(0);
  });

  it("ignores a stored offset that belongs to another bot", async () => {
    const first = await accounts.start({ token: TOKEN, stateDir });
    fake.pushMessage(TOKEN, privateMessage({ text: "old bot" }));
    await first.recorder.waitForReceived(1);
    await first.runtime.stop();
    fake.addBot("456:new", { id: 9002, username: "new_bot" });
    fake.pushMessage("456:new", privateMessage({ text: "new bot" }));
    const second = await accounts.start({ token: "456:new", stateDir });
    expect(texts(await second.recorder.waitForReceived(1))).toEqual(["new bot"]);
  });
});
