import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_ENTRIES,
  DEFAULT_PRUNE_AFTER_MS,
  parseDurationMs,
  resolveMaintenanceSettings,
} from "./maintenance.js";

describe("maintenance settings", () => {
  it("parses OpenClaw durations (numbers are milliseconds)", () => {
    expect(parseDurationMs("30d")).toBe(30 * 86_400_000);
    expect(parseDurationMs("12h")).toBe(12 * 3_600_000);
    expect(parseDurationMs(" 90m ")).toBe(90 * 60_000);
    expect(parseDurationMs("1.5h")).toBe(5_400_000);
    expect(parseDurationMs("2w")).toBe(14 * 86_400_000);
    expect(parseDurationMs(500)).toBe(500);
    expect(parseDurationMs("soon")).toBeUndefined();
    expect(parseDurationMs(-1)).toBeUndefined();
  });

  it("defaults to enforce, 30d and 5000 entries; reports bad values and keeps defaults", () => {
    expect(resolveMaintenanceSettings(undefined).settings).toEqual({
      mode: "enforce",
      pruneAfterMs: DEFAULT_PRUNE_AFTER_MS,
      maxEntries: DEFAULT_MAX_ENTRIES,
      resetArchiveRetentionMs: DEFAULT_PRUNE_AFTER_MS,
    });
    const bad = resolveMaintenanceSettings({ pruneAfter: "forever", maxEntries: 0 });
    expect(bad.settings.pruneAfterMs).toBe(DEFAULT_PRUNE_AFTER_MS);
    expect(bad.problems).toHaveLength(2);
    expect(resolveMaintenanceSettings({ pruneDays: 2 }).settings.pruneAfterMs).toBe(2 * 86_400_000);
    expect(resolveMaintenanceSettings({ resetArchiveRetention: false }).settings).toMatchObject({
      resetArchiveRetentionMs: null,
    });
  });
});
