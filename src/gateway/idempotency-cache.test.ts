import { describe, expect, it } from "vitest";
import { DedupeCache } from "./idempotency-cache.js";

describe("dedupe cache", () => {
  it("a restored outcome expires at its original time, not a full window after the restart", () => {
    let now = 1_000_000;
    const cache = new DedupeCache<{ runId: string }, { status: string }>({
      now: () => now,
      ttlMs: 60_000,
    });
    cache.restore("agent:k", { state: "done", final: { status: "ok" }, at: now - 50_000 });
    expect(cache.get("agent:k")).toMatchObject({ state: "done", final: { status: "ok" } });
    now += 11_000;
    expect(cache.get("agent:k")).toBeUndefined();
  });

  it("a key that was never accepted can be forgotten, so a retry tries again", () => {
    const cache = new DedupeCache<{ runId: string }, { status: string }>();
    cache.begin("agent:k", { runId: "k" });
    cache.delete("agent:k");
    expect(cache.get("agent:k")).toBeUndefined();
  });
});
