import { describe, expect, it } from "vitest";
import { createEntryLogger, type LogEntry } from "../lib/logger.js";
import { createHookEvent, createHookRunner } from "./runner.js";

function logs() {
  const entries: LogEntry[] = [];
  return { entries, logger: createEntryLogger((entry) => entries.push(entry)) };
}

describe("createHookRunner", () => {
  it("runs the type's handlers, then the type:action ones, in order; messages stay on the event", async () => {
    const { logger } = logs();
    const runner = createHookRunner({ logger });
    const seen: string[] = [];
    runner.register("command:new", { hook: "b", handler: () => void seen.push("b") });
    runner.register("command", {
      hook: "a",
      handler: (e) => void e.messages.push(`a saw ${e.action}`),
    });
    runner.register("command:stop", { hook: "c", handler: () => void seen.push("c") });
    const event = createHookEvent({
      type: "command",
      action: "new",
      sessionKey: "k",
      now: () => 0,
    });
    await runner.trigger(event);
    expect(event.messages).toEqual(["a saw new"]);
    expect(seen).toEqual(["b"]);
    expect(event.timestamp.toISOString()).toBe("1970-01-01T00:00:00.000Z");
    expect(runner.has("command", "reset")).toBe(true);
    expect(runner.has("message", "sent")).toBe(false);
  });

  it("logs and skips a handler that throws or overruns its time limit; the next one still runs", async () => {
    const { entries, logger } = logs();
    const runner = createHookRunner({ logger, timeoutMs: 20 });
    const ran: string[] = [];
    runner.register("gateway:startup", {
      hook: "thrower",
      handler: () => {
        throw new Error("boom");
      },
    });
    runner.register("gateway:startup", { hook: "sleeper", handler: () => new Promise(() => {}) });
    runner.register("gateway:startup", { hook: "last", handler: () => void ran.push("last") });
    await runner.trigger(createHookEvent({ type: "gateway", action: "startup", sessionKey: "" }));
    expect(ran).toEqual(["last"]);
    const warnings = entries.filter((e) => e.level === "warn").map((e) => e.msg);
    expect(warnings).toEqual([
      "hook thrower (gateway:startup) failed; skipped",
      "hook sleeper (gateway:startup) timed out; skipped",
    ]);
  });

  it("unregisters", async () => {
    const runner = createHookRunner({ logger: logs().logger });
    const off = runner.register("agent", { hook: "x", handler: () => {} });
    expect(runner.registrations()).toEqual([{ event: "agent", hook: "x" }]);
    off();
    expect(runner.has("agent", "bootstrap")).toBe(false);
  });
});
