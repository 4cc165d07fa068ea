// Heartbeat settings: durations, which agents beat (per-agent blocks win), defaults, the session,
// active hours (including a window over midnight and a named zone) and the HEARTBEAT_OK rule.
import { describe, expect, it } from "vitest";
import { resolveRoster } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import {
  classifyHeartbeatReply,
  DEFAULT_HEARTBEAT_PROMPT,
  type HeartbeatPlan,
  isEffectivelyEmptyHeartbeatFile,
  isWithinActiveHours,
  parseDurationMs,
  resolveHeartbeatPlans,
} from "./settings.js";

describe("heartbeat config", () => {
  it("parses durations with minutes as the default unit", () => {
    expect(parseDurationMs("30m")).toBe(1_800_000);
    expect(parseDurationMs("1h30m")).toBe(5_400_000);
    expect(parseDurationMs("45")).toBe(2_700_000);
    expect(parseDurationMs("90s")).toBe(90_000);
    expect(parseDurationMs("0m")).toBe(0);
    expect(parseDurationMs("soon")).toBeUndefined();
    expect(parseDurationMs("5m later")).toBeUndefined();
  });

  it("gives every agent the 30m default with OpenClaw's prompt in its main session", () => {
    const cfg = { agents: { list: [{ id: "main" }, { id: "ops" }] } } as OpenClawConfig;
    const { plans } = resolveHeartbeatPlans(resolveRoster(cfg));
    expect(plans.map((plan) => [plan.agentId, plan.sessionKey, plan.everyMs])).toEqual([
      ["main", "agent:main:main", 1_800_000],
      ["ops", "agent:ops:main", 1_800_000],
    ]);
    expect(plans[0].prompt).toBe(DEFAULT_HEARTBEAT_PROMPT);
    expect(plans[0].ackMaxChars).toBe(300);
  });

  it("runs only agents with their own block when any has one; 0m disables; bad every is reported", () => {
    const cfg = {
      agents: {
        defaults: { heartbeat: { every: "1h", prompt: "check inbox" } },
        list: [
          { id: "main" },
          { id: "ops", heartbeat: { every: "10m" } },
          { id: "quiet", heartbeat: { every: "0m" } },
          { id: "typo", heartbeat: { every: "often" } },
        ],
      },
    } as unknown as OpenClawConfig;
    const { plans, problems } = resolveHeartbeatPlans(resolveRoster(cfg));
    expect(plans.map((plan) => [plan.agentId, plan.everyMs, plan.prompt])).toEqual([
      ["ops", 600_000, "check inbox"],
    ]);
    expect(problems).toEqual(['agent typo: heartbeat.every "often" is not a duration']);
  });

  it("checks active hours in the configured zone, wrapping over midnight", () => {
    const plan = (activeHours: HeartbeatPlan["activeHours"]): HeartbeatPlan => ({
      agentId: "main",
      sessionKey: "agent:main:main",
      everyMs: 1,
      prompt: "p",
      ackMaxChars: 300,
      target: "last",
      ...(activeHours ? { activeHours } : {}),
      userTimezone: "Asia/Tokyo",
    });
    const at = Date.UTC(2026, 0, 10, 23, 30); // 23:30 UTC = 08:30 in Tokyo
    expect(isWithinActiveHours(plan({ start: "08:00", end: "22:00", timezone: "UTC" }), at)).toBe(
      false,
    );
    expect(isWithinActiveHours(plan({ start: "08:00", end: "22:00", timezone: "user" }), at)).toBe(
      true,
    );
    expect(isWithinActiveHours(plan({ start: "22:00", end: "06:00", timezone: "UTC" }), at)).toBe(
      true,
    );
    expect(isWithinActiveHours(plan({ start: "08:00", end: "24:00", timezone: "UTC" }), at)).toBe(
      true,
    );
    expect(isWithinActiveHours(plan(undefined), at)).toBe(true);
  });

  it("treats HEARTBEAT_OK at the start or end as an ack, unless too much else is said", () => {
    expect(classifyHeartbeatReply("HEARTBEAT_OK", 300)).toEqual({ ack: true, text: "" });
    expect(classifyHeartbeatReply("**HEARTBEAT_OK**", 300)).toEqual({ ack: true, text: "" });
    expect(classifyHeartbeatReply("All quiet. HEARTBEAT_OK", 300)).toEqual({
      ack: true,
      text: "All quiet.",
    });
    expect(classifyHeartbeatReply(`HEARTBEAT_OK ${"x".repeat(20)}`, 10).ack).toBe(false);
    expect(classifyHeartbeatReply("Say HEARTBEAT_OK later, but the build is red", 300)).toEqual({
      ack: false,
      text: "Say HEARTBEAT_OK later, but the build is red",
    });
  });

  it("sees a HEARTBEAT.md of blank lines and headings as empty", () => {
    expect(isEffectivelyEmptyHeartbeatFile("# Heartbeat\n\n## Tasks\n")).toBe(true);
    expect(isEffectivelyEmptyHeartbeatFile("# Heartbeat\n- check mail\n")).toBe(false);
  });
});
