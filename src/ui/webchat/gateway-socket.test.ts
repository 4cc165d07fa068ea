import { describe, expect, it } from "vitest";
import { randomId, reconnectDelayMs } from "./gateway-socket.js";

describe("reconnect backoff", () => {
  it("starts at half a second, doubles, and caps at 15 s", () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 50].map(reconnectDelayMs);
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000]);
  });

  it("makes distinct 128-bit hex ids", () => {
    const ids = new Set(Array.from({ length: 50 }, () => randomId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });
});
