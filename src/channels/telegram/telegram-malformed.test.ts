// Malformed updates through real grammY against the fake Bot API: served between good ones, each is
// logged by its update id with the field that was wrong, skipped, and the offset moves past it, so
// the account keeps running, the good messages arrive, and a restart never sees the bad ones again.
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeStateDir, removeStateDir } from "../../../test/helpers/channel-account-context.js";
import { type FakeTelegram, startFakeTelegram } from "../../../test/helpers/fake-telegram.js";
import {
  fuzzedUpdates,
  malformedUpdates,
  RAW_MALFORMED_ITEMS,
} from "../../../test/helpers/fake-telegram-malformed.js";
import { privateMessage } from "../../../test/helpers/fake-telegram-updates.js";
import { type TelegramAccounts, telegramAccounts } from "../../../test/helpers/telegram-account.js";
import { toChannelInbound } from "./inbound.js";
import { offsetFilePath } from "./offset-store.js";
import { createTelegramUpdateParser } from "./update-schema.js";

const TOKEN = "123:main";
const BOT = { id: 9001, username: "pincer_main_bot" };

let fake: FakeTelegram;
let accounts: TelegramAccounts;
let stateDir: string;

beforeEach(async () => {
  fake = await startFakeTelegram();
  fake.addBot(TOKEN, BOT);
  accounts = telegramAccounts(fake);
  stateDir = makeStateDir();
});

afterEach(async () => {
  await accounts.stopAll();
  await fake.close();
  removeStateDir(stateDir);
});

const SKIPPED = "channel update skipped: malformed";

describe("telegram malformed updates", () => {
  it("skips every malformed shape by update id, keeps polling, and never sees them again", async () => {
    const first = await accounts.start({ token: TOKEN, stateDir });
    const table = malformedUpdates();
    const fuzzed = fuzzedUpdates({ seed: 7, count: 150 });
    const parse = createTelegramUpdateParser();
    const bot = { id: String(BOT.id), username: BOT.username };

    fake.pushMessage(TOKEN, privateMessage({ text: "good before" }));
    const tableIds = table.map((entry) => fake.pushUpdate(TOKEN, entry.update));
    const rawIds = RAW_MALFORMED_ITEMS.map((item) => fake.pushRaw(TOKEN, item));
    const fuzzIds = fuzzed.map((update) => fake.pushUpdate(TOKEN, update));
    const last = fake.pushMessage(TOKEN, privateMessage({ text: "good after" }));
    // The fuzzed updates that are still valid messages are handed on like any other.
    const fuzzKinds = fuzzed.map((update, i) => {
      const full = { ...update, update_id: fuzzIds[i] };
      return toChannelInbound({ update: full, accountId: "default", bot, parse }).kind;
    });
    const validFuzz = fuzzKinds.filter((kind) => kind === "inbound");

    const expected = 2 + validFuzz.length;
    const received = await first.recorder.waitForReceived(expected);
    expect(received[0]!.text).toBe("good before");
    expect(received.at(-1)!.text).toBe("good after");
    await fake.waitForCall("getUpdates", (c) => c.params.offset === last + 1);

    const skipped = first.recorder.logs.filter((l) => l.message === SKIPPED);
    for (const [i, entry] of table.entries()) {
      const line = skipped.find((l) => l.fields.updateId === tableIds[i]);
      expect(line, entry.name).toBeDefined();
      expect(String(line!.fields.reason), entry.name).toContain(entry.blames);
    }
    // Items without a usable update_id are stepped over (logged by their place in the batch).
    expect(skipped.filter((l) => l.fields.updateId === undefined)).toHaveLength(rawIds.length);
    const invalidFuzz = fuzzKinds.filter((kind) => kind === "invalid").length;
    const fuzzSkips = skipped.filter((l) => fuzzIds.includes(l.fields.updateId as number));
    expect(fuzzSkips).toHaveLength(invalidFuzz);
    expect(first.recorder.status().lastError).toMatch(/^update \d+ skipped: update\./);

    // The account is still running (its run did not end) and the offset is past everything.
    const ended = await Promise.race([first.runtime.ended, Promise.resolve("running")]);
    expect(ended).toBe("running");
    await first.runtime.stop();
    const offset = JSON.parse(readFileSync(offsetFilePath(stateDir, "default"), "utf8"));
    expect(offset.lastUpdateId).toBe(last);

    // A restart asks from after the last update: none of the bad ones comes back.
    const callsBefore = fake.calls.length;
    const second = await accounts.start({ token: TOKEN, stateDir });
    const firstPoll = await fake.waitForCall(
      "getUpdates",
      (c) => c.token === TOKEN && fake.calls.indexOf(c) >= callsBefore,
    );
    expect(firstPoll.params.offset).toBe(last + 1);
    await fake.waitForCall("getUpdates", () => fake.pendingPolls(TOKEN) > 0);
    expect(second.recorder.received).toHaveLength(0);
    expect(second.recorder.logs.filter((l) => l.message === SKIPPED)).toHaveLength(0);
  });

  it("a batch of nothing but unusable items ends the run instead of spinning", async () => {
    const { runtime } = await accounts.start({ token: TOKEN, stateDir });
    fake.pushRaw(TOKEN, { update_id: "x" });
    expect(await runtime.ended).toMatchObject({
      failed: true,
      error: expect.stringContaining("none past the offset"),
    });
  });
});
