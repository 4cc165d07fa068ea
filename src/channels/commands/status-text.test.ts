import { describe, expect, it } from "vitest";
import { formatStatus } from "./status-text.js";

describe("formatStatus", () => {
  it("shows model, ids, context against the window, tokens, compactions, levels and the time", () => {
    const text = formatStatus({
      agentId: "main",
      sessionKey: "agent:main:main",
      entry: {
        sessionId: "s-1",
        updatedAt: 1,
        totalTokens: 12_000,
        inputTokens: 11_000,
        outputTokens: 1000,
        compactionCount: 2,
        thinkingLevel: "high",
        authProfileOverride: "anthropic:work",
      },
      configuredModel: "fake/m1",
      contextWindow: 128_000,
      queueMode: "collect",
      elevated: "ask",
      now: Date.UTC(2026, 0, 2, 3, 4, 5),
    });
    expect(text).toContain("Model: fake/m1 · auth profile anthropic:work");
    expect(text).toContain("Session id: s-1");
    expect(text).toContain("Context: 12.0k / 128.0k tokens (9%)");
    expect(text).toContain("Tokens: 11.0k in / 1000 out");
    expect(text).toContain("Compactions: 2");
    expect(text).toContain("Queue: collect\nElevated: ask");
    expect(text).toContain("Thinking: high · Verbose: off · Reasoning: off");
    expect(text).toContain("Time: 2026-01-02T03:04:05.000Z");
  });

  it("says when there is no session or turn yet", () => {
    const text = formatStatus({
      agentId: "main",
      sessionKey: "agent:main:main",
      entry: undefined,
      queueMode: "steer",
      now: 0,
    });
    expect(text).toContain("Session id: none yet");
    expect(text).toContain("Context: no turn yet");
    expect(text).toContain("Model: not configured");
  });

  it("says when the session resets next, that it expired, or that it never resets", () => {
    const base = { agentId: "main", sessionKey: "k", entry: undefined, queueMode: "steer", now: 0 };
    const next = Date.UTC(2026, 0, 3, 4);
    const daily = formatStatus({
      ...base,
      reset: {
        expired: false,
        nextResetAt: next,
        policy: { mode: "daily", atHour: 4, idleMinutes: 30 },
      },
    });
    expect(daily).toContain(
      "Resets: daily at 04:00 or after 30 min idle, next 2026-01-03T04:00:00.000Z",
    );
    const idle = formatStatus({
      ...base,
      reset: {
        expired: true,
        reason: "idle",
        policy: { mode: "idle", atHour: 4, idleMinutes: 60 },
      },
    });
    expect(idle).toContain(
      "Resets: after 60 min idle; expired (idle), the next message starts a new session",
    );
    const never = formatStatus({
      ...base,
      reset: { expired: false, policy: { mode: "none", atHour: 4 } },
    });
    expect(never).toContain("Resets: never");
  });
});
