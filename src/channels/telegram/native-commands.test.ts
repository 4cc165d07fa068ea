// The "/" menu through real grammY against the fake Bot API (which checks Telegram's limits):
// registered with the commands given, cleared when native is off, left alone without a menu, and
// a refused call is logged without rejecting.
import { Api } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram } from "../../../test/helpers/fake-telegram.js";
import { createEntryLogger, type LogEntry } from "../../lib/logger.js";
import {
  syncTelegramCommandMenu,
  TELEGRAM_MAX_COMMAND_DESCRIPTION,
  TELEGRAM_MAX_MENU_COMMANDS,
  telegramMenuCommands,
} from "./native-commands.js";

const TOKEN = "123:menu";
let fake: FakeTelegram;
let logs: LogEntry[];

beforeEach(async () => {
  fake = await startFakeTelegram();
  fake.addBot(TOKEN, { id: 9001, username: "pincer_bot" });
  logs = [];
});
afterEach(() => fake.close());

function sync(menu: Parameters<typeof syncTelegramCommandMenu>[0]["menu"]) {
  return syncTelegramCommandMenu({
    api: new Api(TOKEN, { apiRoot: fake.apiRoot }),
    menu,
    log: createEntryLogger((entry) => logs.push(entry)),
    signal: new AbortController().signal,
    accountId: "default",
  });
}

describe("telegramMenuCommands", () => {
  it("keeps Telegram's limits: names [a-z0-9_] 1-32, descriptions 1-256, 100 commands", () => {
    const many = Array.from({ length: 120 }, (_, i) => ({ name: `c${i}`, description: "x" }));
    const { commands, skipped } = telegramMenuCommands([
      { name: "Status", description: "  the   status  " },
      { name: "status", description: "a second status" },
      { name: "bad-name", description: "dash" },
      { name: "x".repeat(33), description: "long" },
      { name: "empty", description: " " },
      { name: "wordy", description: "w".repeat(300) },
      ...many,
    ]);
    expect(commands.slice(0, 3)).toEqual([
      { command: "status", description: "the status" },
      { command: "empty", description: "/empty" },
      { command: "wordy", description: `${"w".repeat(TELEGRAM_MAX_COMMAND_DESCRIPTION - 1)}…` },
    ]);
    expect(commands).toHaveLength(TELEGRAM_MAX_MENU_COMMANDS);
    expect(commands.every((c) => c.description.length <= TELEGRAM_MAX_COMMAND_DESCRIPTION)).toBe(
      true,
    );
    expect(skipped.map((s) => s.name).slice(0, 2)).toEqual(["bad-name", "x".repeat(33)]);
    expect(skipped).toHaveLength(2 + 23);
  });
});

describe("syncTelegramCommandMenu", () => {
  it("registers the menu (auto), clears it (false), leaves it without a menu", async () => {
    const commands = [
      { name: "status", description: "session status" },
      { name: "reset", description: "new session" },
    ];
    await sync({ native: "auto", commands });
    expect(fake.commandMenu(TOKEN)).toEqual([
      { command: "status", description: "session status" },
      { command: "reset", description: "new session" },
    ]);
    await sync(undefined);
    expect(fake.calls.map((c) => c.method)).toEqual(["setMyCommands"]);
    await sync({ native: false, commands });
    expect(fake.callsOf("deleteMyCommands", TOKEN)).toHaveLength(1);
    expect(fake.commandMenu(TOKEN)).toEqual([]);
  });

  it("a refused call is logged, never thrown", async () => {
    fake.failNext("setMyCommands", 1, { kind: "status", code: 400, description: "Bad Request: X" });
    await expect(sync({ native: true, commands: [{ name: "a", description: "b" }] })).resolves.toBe(
      undefined,
    );
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: "warn",
        msg: "telegram: command menu not updated",
        fields: expect.objectContaining({ error: expect.stringContaining("Bad Request: X") }),
      }),
    );
  });
});
