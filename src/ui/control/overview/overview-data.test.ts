import { describe, expect, it } from "vitest";
import { accountSummaries, configProblems, uptimeWords } from "./overview-data.js";

describe("overview data", () => {
  it("words an uptime", () => {
    expect(uptimeWords(12_000)).toBe("12 s");
    expect(uptimeWords(5 * 60_000)).toBe("5 min");
    expect(uptimeWords(3 * 3_600_000 + 4 * 60_000)).toBe("3 h 4 min");
    expect(uptimeWords(26 * 3_600_000)).toBe("1 d 2 h");
  });

  it("gives each account a state and a badge, in channel order", () => {
    const rows = accountSummaries({
      channelOrder: ["telegram", "slack"],
      channelLabels: { telegram: "Telegram" },
      channelAccounts: {
        slack: [{ accountId: "default", running: false, lastError: "bad token" }],
        telegram: [
          { accountId: "default", running: true, connected: true },
          { accountId: "off", enabled: false },
        ],
      },
    });
    expect(rows.map((row) => [row.label, row.accountId, row.state, row.badge])).toEqual([
      ["Telegram", "default", "connected", "ok"],
      ["Telegram", "off", "disabled", "warn"],
      ["slack", "default", "error", "err"],
    ]);
  });

  it("lists an invalid file's errors with their lines, and a refused reload", () => {
    const problems = configProblems({
      valid: false,
      issues: [
        { severity: "error", path: "gateway.port", message: "must be a number", line: 3 },
        { severity: "warning", path: "x", message: "unknown key" },
      ],
      rejected: { message: "invalid config" },
    });
    expect(problems).toEqual([
      "gateway.port (line 3): must be a number",
      "reload refused: invalid config",
    ]);
    expect(configProblems({ valid: true, issues: [] })).toEqual([]);
  });
});
