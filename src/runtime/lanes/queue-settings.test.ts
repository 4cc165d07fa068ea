import { describe, expect, it } from "vitest";
import {
  DEFAULT_QUEUE_SETTINGS,
  normalizeQueueDrop,
  normalizeQueueMode,
  queueOverrideFromSession,
  resolveQueueSettings,
} from "./queue-settings.js";

describe("resolveQueueSettings", () => {
  it("uses the legacy defaults: collect, 1000 ms, cap 20, summarize", () => {
    expect(resolveQueueSettings({})).toEqual({
      mode: "collect",
      debounceMs: 1000,
      cap: 20,
      drop: "summarize",
    });
    expect(DEFAULT_QUEUE_SETTINGS.mode).toBe("collect");
  });

  it("resolves inline → session → byChannel → messages.queue", () => {
    const cfg = {
      messages: {
        queue: {
          mode: "followup" as const,
          byChannel: { telegram: "steer" as const },
          debounceMs: 300,
          debounceMsByChannel: { telegram: 50 },
          cap: 5,
          drop: "old" as const,
        },
      },
    };
    expect(resolveQueueSettings({ cfg, channel: "whatsapp" })).toEqual({
      mode: "followup",
      debounceMs: 300,
      cap: 5,
      drop: "old",
    });
    expect(resolveQueueSettings({ cfg, channel: "telegram" })).toMatchObject({
      mode: "steer",
      debounceMs: 50,
    });
    expect(
      resolveQueueSettings({
        cfg,
        channel: "telegram",
        sessionOverride: { mode: "interrupt", debounceMs: 0, cap: 2, drop: "newest" },
      }),
    ).toEqual({ mode: "interrupt", debounceMs: 0, cap: 2, drop: "new" });
    expect(
      resolveQueueSettings({
        cfg,
        sessionOverride: { mode: "interrupt" },
        inline: { mode: "coalesce" },
      }).mode,
    ).toBe("collect");
  });

  it("skips unknown values and clamps numbers", () => {
    const settings = resolveQueueSettings({
      cfg: { messages: { queue: { mode: "steer" } } },
      sessionOverride: { mode: "bogus", debounceMs: -5, cap: 0.4, drop: "???" },
    });
    expect(settings).toEqual({ mode: "steer", debounceMs: 0, cap: 1, drop: "summarize" });
  });
});

describe("aliases", () => {
  it("maps mode aliases and legacy stored values", () => {
    expect(normalizeQueueMode("steering")).toBe("steer");
    expect(normalizeQueueMode("queue")).toBe("steer");
    expect(normalizeQueueMode("follow-ups")).toBe("followup");
    expect(normalizeQueueMode("steer+backlog")).toBe("followup");
    expect(normalizeQueueMode("steer-backlog")).toBe("followup");
    expect(normalizeQueueMode("COALESCE")).toBe("collect");
    expect(normalizeQueueMode("abort")).toBe("interrupt");
    expect(normalizeQueueMode("nope")).toBeUndefined();
    expect(normalizeQueueDrop("oldest")).toBe("old");
    expect(normalizeQueueDrop("summary")).toBe("summarize");
  });

  it("reads the override stored on a session entry", () => {
    expect(
      queueOverrideFromSession({ sessionId: "x", queueMode: "queue", queueDebounceMs: 10 }),
    ).toEqual({ mode: "queue", debounceMs: 10 });
    expect(queueOverrideFromSession(undefined)).toEqual({});
  });
});
