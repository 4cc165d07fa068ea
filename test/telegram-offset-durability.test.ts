// The inbound journal is made durable before the Telegram offset that stops redelivery is saved
// (power loss, not only kill -9): real grammY polling against the fake Bot API with a recording
// context, which looks at the offset file each time the adapter asks for the journal's fsync. And the
// journal's `sync` itself: lines written before it are on disk after it, and it is a no-op once closed.
import { existsSync, readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inboundJournalPath, openInboundJournal } from "../src/channels/inbound/inbound-journal.js";
import { offsetFilePath } from "../src/channels/telegram/offset-store.js";
import type { ChannelInbound } from "../src/channels/types.js";
import { silentLogger } from "../src/lib/logger.js";
import { makeStateDir, removeStateDir } from "./helpers/channel-account-context.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import { type TelegramAccounts, telegramAccounts } from "./helpers/telegram-account.js";

const TOKEN = "123:durable";

let fake: FakeTelegram;
let accounts: TelegramAccounts;
let stateDir: string;
beforeEach(async () => {
  fake = await startFakeTelegram();
  fake.addBot(TOKEN, { id: 9002, username: "pincer_durable_bot" });
  accounts = telegramAccounts(fake);
  stateDir = makeStateDir();
});
afterEach(async () => {
  await accounts.stopAll();
  await fake.close();
  removeStateDir(stateDir);
});

const storedOffset = (): number | undefined => {
  const path = offsetFilePath(stateDir, "default");
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")).lastUpdateId : undefined;
};

describe("inbound durability before the offset", () => {
  it("syncs the journal before every offset write that covers newly received updates", async () => {
    const account = await accounts.start({ token: TOKEN, stateDir });
    const seen: Array<{ received: number; offsetOnDisk: number | undefined }> = [];
    account.recorder.onSyncInbound = () =>
      seen.push({ received: account.recorder.received.length, offsetOnDisk: storedOffset() });
    const ids = ["one", "two", "three"].map((text) =>
      fake.pushMessage(TOKEN, privateMessage({ text })),
    );
    await account.recorder.waitForReceived(3);
    await fake.waitForCall("getUpdates", (c) => Number(c.params.offset) > ids[2]!);
    expect(storedOffset()).toBe(ids[2]);
    expect(seen.length).toBeGreaterThan(0);
    // Each sync came before the offset write it protects: the file still held the older position.
    expect(seen.at(-1)?.received).toBe(3);
    for (const sync of seen) {
      if (sync.offsetOnDisk !== undefined)
        expect(sync.offsetOnDisk).toBeLessThan(ids[sync.received - 1]!);
    }

    fake.pushMessage(TOKEN, privateMessage({ text: "four" }));
    await account.recorder.waitForReceived(4);
    await fake.waitForCall("getUpdates", (c) => Number(c.params.offset) > ids[2]! + 1);
    expect(seen.at(-1)).toEqual({ received: 4, offsetOnDisk: ids[2] });
  });

  it("journal sync keeps what was written and is a no-op once closed", () => {
    const log = silentLogger;
    const journal = openInboundJournal({ stateDir, log, syncDelayMs: 60_000 });
    const inbound: ChannelInbound = {
      channel: "telegram",
      accountId: "default",
      messageId: "1",
      timestamp: 1,
      sender: { id: "5" },
      peer: { kind: "direct", id: "5" },
      text: "kept",
      mentions: [],
      mentionedSelf: false,
      media: [],
    };
    journal.accept("k1", inbound);
    journal.settle("k1", "replied");
    journal.sync();
    expect(readFileSync(inboundJournalPath(stateDir), "utf8").trim().split("\n")).toHaveLength(2);
    journal.close();
    expect(() => journal.sync()).not.toThrow();
  });
});
