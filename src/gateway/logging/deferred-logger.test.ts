// The stand-in logger of the daemon before pino loads: kept lines are written on flush, in order,
// with their child bindings and the time they were logged; later lines go straight through.
import { describe, expect, it } from "vitest";
import { createEntryLogger, type LogEntry } from "../../lib/logger.js";
import { createDeferredLogger } from "./deferred-logger.js";

describe("createDeferredLogger", () => {
  it("writes the lines logged before flush in order, with their bindings and moments", async () => {
    let clock = 1000;
    let replaying: number | undefined;
    const written: Array<LogEntry & { at: number }> = [];
    let loads = 0;
    const deferred = createDeferredLogger({
      load: async () => {
        loads += 1;
        return createEntryLogger((entry) => written.push({ ...entry, at: replaying ?? clock }));
      },
      now: () => clock,
      replayingAt: (at) => {
        replaying = at;
      },
      onLoadError: (err) => {
        throw err;
      },
    });
    const account = deferred.logger.child({ channel: "telegram" });
    deferred.logger.info({ url: "ws://x" }, "gateway ready");
    clock = 1005;
    account.child({ chatId: "42" }).warn("slow");
    expect(written).toEqual([]);
    clock = 2000;
    await Promise.all([deferred.flush(), deferred.flush()]);
    deferred.logger.error("later");
    expect(loads).toBe(1);
    expect(written).toEqual([
      { level: "info", msg: "gateway ready", fields: { url: "ws://x" }, at: 1000 },
      { level: "warn", msg: "slow", fields: { channel: "telegram", chatId: "42" }, at: 1005 },
      { level: "error", msg: "later", fields: {}, at: 2000 },
    ]);
  });

  it("reports a logger that fails to load and never rejects", async () => {
    const errors: unknown[] = [];
    const deferred = createDeferredLogger({
      load: () => Promise.reject(new Error("no pino")),
      now: () => 0,
      replayingAt: () => {},
      onLoadError: (err) => errors.push(err),
    });
    deferred.logger.info("kept");
    await expect(deferred.flush()).resolves.toBeUndefined();
    deferred.logger.info("dropped quietly");
    expect(String(errors[0])).toContain("no pino");
  });
});
