import { describe, expect, it } from "vitest";
import { MAX_QUEUED_SYSTEM_EVENTS, SystemEventQueue, withSystemEvents } from "./system-events.js";

describe("SystemEventQueue", () => {
  it("queues per session, bounded, and drains oldest first", () => {
    const queue = new SystemEventQueue();
    for (let i = 0; i < MAX_QUEUED_SYSTEM_EVENTS + 2; i++) queue.enqueue("a", `e${i}`);
    queue.enqueue("b", "  ");
    expect(queue.peek("a")).toHaveLength(MAX_QUEUED_SYSTEM_EVENTS);
    expect(queue.peek("b")).toEqual([]);
    const drained = queue.drain("a");
    expect(drained[0]).toBe("e2");
    expect(queue.peek("a")).toEqual([]);
    expect(withSystemEvents(["x", "y"], "prompt")).toBe("System: x\nSystem: y\n\nprompt");
    expect(withSystemEvents([], "prompt")).toBe("prompt");
  });
});
