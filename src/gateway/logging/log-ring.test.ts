// The `logs.tail` ring and its logger: a line carries the child bindings beside the call's fields,
// and the ring serves lines by cursor within its capacity.
import { describe, expect, it } from "vitest";
import { createRingLogger, LogRing } from "./log-ring.js";

const T = Date.parse("2026-03-14T09:30:00.000Z");

describe("log ring", () => {
  it("records a child's bindings in every line, with the call's fields", () => {
    const ring = new LogRing();
    const logger = createRingLogger(ring, () => T);
    const account = logger.child({ channel: "telegram", accountId: "main" });
    account.warn({ updateId: 7 }, "update skipped");
    account.info("started");
    logger.info("gateway ready");
    expect(ring.tail({ limit: 10, maxBytes: 10_000 }).lines).toEqual([
      '2026-03-14T09:30:00.000Z warn update skipped {"channel":"telegram","accountId":"main","updateId":7}',
      '2026-03-14T09:30:00.000Z info started {"channel":"telegram","accountId":"main"}',
      "2026-03-14T09:30:00.000Z info gateway ready",
    ]);
  });

  it("serves lines after a cursor and resets a cursor the ring no longer holds", () => {
    const ring = new LogRing(3);
    const logger = createRingLogger(ring, () => T);
    for (let n = 1; n <= 5; n++) logger.info(`line ${n}`);
    const all = ring.tail({ limit: 10, maxBytes: 10_000 });
    expect(all.lines.map((line) => line.split(" ").slice(2).join(" "))).toEqual([
      "line 3",
      "line 4",
      "line 5",
    ]);
    expect(all).toMatchObject({ cursor: 5, size: 5, reset: false });
    logger.info("line 6");
    expect(ring.tail({ cursor: 5, limit: 10, maxBytes: 10_000 }).lines).toHaveLength(1);
    expect(ring.tail({ cursor: 1, limit: 10, maxBytes: 10_000 }).reset).toBe(true);
  });
});
