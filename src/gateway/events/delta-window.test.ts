import { describe, expect, it } from "vitest";
import { DELTA_WINDOW_MS, DeltaWindow } from "./delta-window.js";

describe("DeltaWindow", () => {
  it("sends the first delta, holds the ones within the window, sends them with the next one past it", () => {
    let t = 1000;
    const window = new DeltaWindow(() => t);
    expect(window.push("a")).toBe("a");
    t += DELTA_WINDOW_MS - 1;
    expect(window.push("b")).toBeUndefined();
    expect(window.push("c")).toBeUndefined();
    t += 1;
    expect(window.push("d")).toBe("bcd");
    // The window restarts at each send.
    t += 10;
    expect(window.push("e")).toBeUndefined();
    expect(window.flush()).toBe("e");
    expect(window.flush()).toBeUndefined();
    // A flush is a send: the next delta within its window is held.
    expect(window.push("f")).toBeUndefined();
  });

  it("never sends an empty delta", () => {
    let t = 0;
    const window = new DeltaWindow(() => t);
    expect(window.push("")).toBeUndefined();
    expect(window.flush()).toBeUndefined();
    t += DELTA_WINDOW_MS;
    expect(window.push("x")).toBe("x");
  });
});
