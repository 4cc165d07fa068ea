import { describe, expect, it } from "vitest";
import type { OutboundTarget } from "../types.js";
import { resolveTypingSettings, startTyping } from "./typing.js";

describe("typing indicator", () => {
  it("sends at once, refreshes on the interval, stops for good", async () => {
    const sent: OutboundTarget[] = [];
    let tick: (() => void) | undefined;
    let cleared = false;
    const target = { accountId: "a", peer: { kind: "direct" as const, id: "1" } };
    const stop = startTyping({
      runtime: { sendTyping: async (t) => void sent.push(t) },
      target,
      intervalMs: 6000,
      timers: {
        setInterval: (fn, ms) => {
          expect(ms).toBe(6000);
          tick = fn;
          return 1;
        },
        clearInterval: () => {
          cleared = true;
        },
      },
    });
    expect(sent).toEqual([target]);
    tick?.();
    expect(sent).toHaveLength(2);
    stop();
    stop();
    expect(cleared).toBe(true);
  });

  it("is a no-op for platforms without typing", () => {
    expect(() =>
      startTyping({ runtime: {}, target: { accountId: "a", peer: { kind: "direct", id: "1" } } })(),
    ).not.toThrow();
  });
});

describe("typing settings", () => {
  it("agent over defaults over session; typingMode never disables", () => {
    const cfg = {
      agents: {
        defaults: { typingIntervalSeconds: 4 },
        list: [{ id: "main" }, { id: "quiet", typingMode: "never" as const }],
      },
      session: { typingIntervalSeconds: 9 },
    };
    expect(resolveTypingSettings(cfg, "main")).toEqual({ enabled: true, intervalMs: 4000 });
    expect(resolveTypingSettings(cfg, "quiet").enabled).toBe(false);
    expect(resolveTypingSettings({}, "main")).toEqual({ enabled: true, intervalMs: 6000 });
  });
});
