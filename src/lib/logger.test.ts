// The one Logger shape: both call forms, child bindings merged into every line (a call's own fields
// win), the tee writing to both sides (children included), the silent logger staying silent.
import { describe, expect, it } from "vitest";
import { createEntryLogger, type LogEntry, silentLogger, teeLogger } from "./logger.js";

function recorder() {
  const entries: LogEntry[] = [];
  return { entries, logger: createEntryLogger((entry) => entries.push(entry)) };
}

describe("Logger", () => {
  it("takes fields then message, or the message alone, like pino", () => {
    const r = recorder();
    r.logger.info({ n: 1 }, "with fields");
    r.logger.warn("alone");
    r.logger.debug({ only: "fields" });
    expect(r.entries).toEqual([
      { level: "info", msg: "with fields", fields: { n: 1 } },
      { level: "warn", msg: "alone", fields: {} },
      { level: "debug", msg: "", fields: { only: "fields" } },
    ]);
  });

  it("merges child bindings into every line, nested children too, the call's fields winning", () => {
    const r = recorder();
    const account = r.logger.child({ channel: "telegram", accountId: "main" });
    account.error({ updateId: 7 }, "skipped");
    account.child({ chatId: "42" }).info("sent");
    account.warn({ accountId: "override" }, "clash");
    r.logger.info("parent unchanged");
    expect(r.entries).toEqual([
      {
        level: "error",
        msg: "skipped",
        fields: { channel: "telegram", accountId: "main", updateId: 7 },
      },
      {
        level: "info",
        msg: "sent",
        fields: { channel: "telegram", accountId: "main", chatId: "42" },
      },
      { level: "warn", msg: "clash", fields: { channel: "telegram", accountId: "override" } },
      { level: "info", msg: "parent unchanged", fields: {} },
    ]);
  });

  it("tees every line, and every child's line, to both loggers", () => {
    const a = recorder();
    const b = recorder();
    const both = teeLogger(a.logger, b.logger);
    both.info({ k: 1 }, "one");
    both.child({ connId: "c1" }).warn("two");
    for (const side of [a, b]) {
      expect(side.entries).toEqual([
        { level: "info", msg: "one", fields: { k: 1 } },
        { level: "warn", msg: "two", fields: { connId: "c1" } },
      ]);
    }
  });

  it("refuses the old message-first order at compile time", () => {
    const r = recorder();
    // @ts-expect-error fields come first (pino's order); a message then fields is a type error
    r.logger.warn("message first", { n: 1 });
    expect(r.entries).toHaveLength(1);
  });

  it("has a silent logger whose children are silent too", () => {
    expect(() => {
      silentLogger.error({ a: 1 }, "dropped");
      silentLogger.child({ b: 2 }).info("dropped");
    }).not.toThrow();
    expect(silentLogger.child({ b: 2 })).toBe(silentLogger);
  });
});
