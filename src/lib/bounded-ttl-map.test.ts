import { describe, expect, it } from "vitest";
import { BoundedTtlMap } from "./bounded-ttl-map.js";

describe("BoundedTtlMap", () => {
  it("forgets an entry ttlMs after it was set, and at the given start time", () => {
    let now = 1_000;
    const map = new BoundedTtlMap<string, number>({ ttlMs: 100, max: 10, now: () => now });
    map.set("a", 1);
    map.set("old", 2, now - 90);
    now += 50;
    expect(map.get("a")).toBe(1);
    expect(map.get("old")).toBeUndefined();
    now += 50;
    expect(map.has("a")).toBe(false);
    expect(map.size).toBe(0);
  });

  it("keeps at most max entries, evicting the oldest set (a set moves a key to the newest end)", () => {
    const map = new BoundedTtlMap<string, number>({ ttlMs: 1_000, max: 2, now: () => 0 });
    map.set("a", 1);
    map.set("b", 2);
    map.set("a", 3);
    map.set("c", 4);
    expect([map.get("a"), map.get("b"), map.get("c")]).toEqual([3, undefined, 4]);
    expect(map.size).toBe(2);
  });

  it("never expires a value `expires` rejects, but still evicts it over the bound", () => {
    let now = 0;
    const map = new BoundedTtlMap<string, { done: boolean }>({
      ttlMs: 10,
      max: 2,
      now: () => now,
      expires: (value) => value.done,
    });
    map.set("running", { done: false });
    map.set("finished", { done: true });
    now = 100;
    expect(map.get("running")).toEqual({ done: false });
    expect(map.get("finished")).toBeUndefined();
    map.set("x", { done: false });
    map.set("y", { done: false });
    expect(map.get("running")).toBeUndefined();
  });

  it("prunes expired entries from the oldest end when a key is set", () => {
    let now = 0;
    const map = new BoundedTtlMap<string, number>({ ttlMs: 10, max: 100, now: () => now });
    for (const key of ["a", "b", "c"]) map.set(key, 1);
    now = 20;
    map.set("d", 1);
    expect(map.size).toBe(1);
  });
});
