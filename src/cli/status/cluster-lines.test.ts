import { describe, expect, it } from "vitest";
import { clusterLines } from "./cluster-lines.js";

describe("clusterLines", () => {
  it("shows nothing without a run queue", () => {
    expect(clusterLines(undefined)).toEqual([]);
    expect(clusterLines({})).toEqual([]);
  });

  it("shows the depth per partition and the workers", () => {
    const lines = clusterLines({
      queue: {
        url: "nats://127.0.0.1:4222",
        connected: true,
        pending: 3,
        depth: {
          stream: "PINCER_TURNS",
          total: 5,
          partitions: { "3": 1, "9": 4 },
          partitionCount: 64,
        },
        workers: [{ id: "vm-1", concurrency: 4, inFlight: 2, lastSeenMs: 1200 }],
      },
    });
    expect(lines[0]).toBe("Queue     nats://127.0.0.1:4222 connected");
    expect(lines[1]).toContain(
      "stream PINCER_TURNS: 5 turn(s) queued or running in 2/64 partition(s) (p9=4 p3=1)",
    );
    expect(lines[1]).toContain("3 awaited by this gateway");
    expect(lines).toContain("  workers 1");
    expect(lines).toContain("    vm-1  2/4 in flight  seen 1s ago");
  });

  it("says when NATS is down", () => {
    const lines = clusterLines({
      queue: { url: "nats://x:4222", connected: false, error: "ECONNREFUSED", workers: [] },
    });
    expect(lines[0]).toBe("Queue     nats://x:4222 disconnected (ECONNREFUSED)");
  });
});
