import { describe, expect, it } from "vitest";
import { answerDuplicate, turnKey } from "./idempotency.js";
import { DedupeCache } from "./idempotency-cache.js";

describe("turn idempotency", () => {
  it("keeps one key space per method", () => {
    expect(turnKey("agent", "k")).toBe("agent:k");
    expect(turnKey("chat", "k")).toBe("chat:k");
  });

  it("answers a new key with nothing, an in-flight one with its info, a done one with its final", () => {
    let now = 0;
    const dedupe = new DedupeCache<Record<string, unknown>, Record<string, unknown>>({
      now: () => now,
      ttlMs: 10,
    });
    expect(answerDuplicate(dedupe, "chat:a")).toBeUndefined();
    dedupe.begin("chat:a", { runId: "a" });
    expect(answerDuplicate(dedupe, "chat:a")).toEqual({
      ok: true,
      payload: { runId: "a", status: "in_flight" },
    });
    dedupe.finish("chat:a", { runId: "a", status: "error", error: "boom" });
    expect(answerDuplicate(dedupe, "chat:a")).toEqual({
      ok: true,
      payload: { runId: "a", status: "error", error: "boom" },
    });
    now = 11;
    expect(answerDuplicate(dedupe, "chat:a")).toBeUndefined();
  });
});
