// The process guards on a stand-in process (an EventEmitter): rejections and uncaught exceptions are
// logged with their context and never exit, except Node's internal assertion failures; a flood is
// capped per window; a throwing logger falls back; uninstalling removes both handlers.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { createEntryLogger } from "../lib/logger.js";
import { FATAL_EXIT_CODE, type GuardedProcess, installProcessGuards } from "./process-guards.js";

function setup(options: { maxReportsPerWindow?: number; throwingLogger?: boolean } = {}) {
  const target = new EventEmitter();
  const lines: Array<{ message: string; fields: Record<string, unknown> }> = [];
  const exits: number[] = [];
  const fallback: string[] = [];
  let now = 0;
  const release = installProcessGuards({
    target: target as unknown as GuardedProcess,
    log: createEntryLogger(({ msg, fields }) => {
      if (options.throwingLogger) throw new Error("EPIPE");
      lines.push({ message: msg, fields });
    }),
    exit: (code) => exits.push(code),
    fallback: (line) => fallback.push(line),
    now: () => now,
    windowMs: 1_000,
    ...(options.maxReportsPerWindow ? { maxReportsPerWindow: options.maxReportsPerWindow } : {}),
  });
  return { target, lines, exits, fallback, release, tick: (ms: number) => (now += ms) };
}

describe("process guards", () => {
  it("logs an unhandled rejection and an uncaught exception with context, and does not exit", () => {
    const g = setup();
    g.target.emit("unhandledRejection", new TypeError("x is undefined"));
    g.target.emit("unhandledRejection", { weird: true });
    g.target.emit("uncaughtException", new RangeError("bad"), "uncaughtException");
    expect(g.exits).toEqual([]);
    expect(g.lines.map((l) => l.fields.kind)).toEqual([
      "unhandledRejection",
      "unhandledRejection",
      "uncaughtException",
    ]);
    expect(g.lines[0]!.fields).toMatchObject({
      name: "TypeError",
      error: "x is undefined",
      stack: expect.stringContaining("process-guards.test"),
    });
    expect(g.lines[1]!.fields).toMatchObject({ error: '{"weird":true}', valueType: "object" });
    expect(g.lines[2]!.fields).toMatchObject({ origin: "uncaughtException", name: "RangeError" });
  });

  it("exits with 70 on Node's internal assertion failures only", () => {
    const g = setup();
    const broken = Object.assign(new Error("internal"), { code: "ERR_INTERNAL_ASSERTION" });
    g.target.emit("uncaughtException", broken, "uncaughtException");
    expect(g.exits).toEqual([FATAL_EXIT_CODE]);
    expect(g.lines[0]!.message).toMatch(/fatal/);
  });

  it("caps a flood per window, then says how many were suppressed", () => {
    const g = setup({ maxReportsPerWindow: 3 });
    for (let i = 0; i < 50; i++) g.target.emit("unhandledRejection", new Error(`n${i}`));
    expect(g.lines).toHaveLength(3);
    g.tick(1_000);
    g.target.emit("unhandledRejection", new Error("later"));
    expect(g.lines.slice(3).map((l) => [l.message, l.fields.suppressed ?? l.fields.error])).toEqual(
      [
        ["process guard: reports suppressed", 47],
        [expect.stringContaining("unhandled promise rejection"), "later"],
      ],
    );
  });

  it("falls back when the logger throws, and removes its handlers on release", () => {
    const g = setup({ throwingLogger: true });
    g.target.emit("unhandledRejection", new Error("boom"));
    expect(g.fallback).toEqual([expect.stringContaining("boom (logger failed: Error: EPIPE)")]);
    g.release();
    expect(g.target.listenerCount("unhandledRejection")).toBe(0);
    expect(g.target.listenerCount("uncaughtException")).toBe(0);
  });
});
