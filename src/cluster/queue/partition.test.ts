import { describe, expect, it } from "vitest";
import { fnv1a, partitionOf } from "./partition.js";
import { consumerName, resolveQueueSettings, signalSubjects, turnSubject } from "./settings.js";

describe("partitionOf", () => {
  it("is stable: the same key always lands on the same partition (known FNV-1a values)", () => {
    expect(fnv1a("")).toBe(0x811c9dc5);
    expect(fnv1a("a")).toBe(0xe40c292c);
    const key = "agent:main:telegram:dm:42";
    expect(partitionOf(key, 64)).toBe(partitionOf(key, 64));
    expect(partitionOf(key, 64)).toBe(fnv1a(key) % 64);
  });

  it("stays in range and spreads keys over the partitions", () => {
    const counts = new Array<number>(16).fill(0);
    for (let i = 0; i < 1600; i++) {
      const p = partitionOf(`agent:main:s${i}`, 16);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(16);
      counts[p] = (counts[p] ?? 0) + 1;
    }
    // Every partition gets some keys, none gets a third of them.
    for (const count of counts) {
      expect(count).toBeGreaterThan(40);
      expect(count).toBeLessThan(1600 / 3);
    }
  });

  it("one partition takes every key", () => {
    expect(partitionOf("x", 1)).toBe(0);
    expect(partitionOf("y", 0)).toBe(0);
  });
});

describe("queue settings", () => {
  it("applies the defaults and derives subjects and consumer names", () => {
    const settings = resolveQueueSettings({ kind: "nats", url: "nats://127.0.0.1:4222" });
    expect(settings).toEqual({
      url: "nats://127.0.0.1:4222",
      stream: "PINCER_TURNS",
      prefix: "pincer",
      ackWaitMs: 30_000,
      partitions: 64,
    });
    expect(turnSubject(settings, 7)).toBe("pincer.turn.7");
    expect(consumerName(settings, 7)).toBe("PINCER_TURNS_p7");
    const subjects = signalSubjects(settings);
    expect(subjects.events("r1")).toBe("pincer.events.r1");
    expect(subjects.cancel("r1")).toBe("pincer.cancel.r1");
    expect(subjects.results).toBe("pincer.results");
  });
});
