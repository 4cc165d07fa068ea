import { describe, expect, it } from "vitest";
import type { ConfigIssue } from "./config-issue.js";
import { configIssuesToJson, formatConfigIssues } from "./format-issues.js";

const issues: ConfigIssue[] = [
  {
    severity: "warning",
    path: "agents.list[1].id",
    message: "w1",
    file: "/c/openclaw.json",
    line: 4,
    column: 7,
  },
  {
    severity: "error",
    path: "agents.list[1].agentDir",
    message: "e2",
    file: "/c/parts/agents.json5",
    line: 2,
    column: 3,
  },
  {
    severity: "error",
    path: "gateway.port",
    message: "e1",
    file: "/c/openclaw.json",
    line: 12,
    column: 5,
  },
  { severity: "error", path: "", message: "e3" },
];

describe("formatConfigIssues", () => {
  it("prints errors then warnings, main file first, with a summary", () => {
    const text = formatConfigIssues({ valid: false, path: "/c/openclaw.json", issues });
    expect(text.split("\n")).toEqual([
      "Config is invalid: /c/openclaw.json",
      "✖ openclaw.json:12:5  gateway.port  e1",
      "✖ parts/agents.json5:2:3  agents.list[1].agentDir  e2",
      "✖ (root)  e3",
      "⚠ openclaw.json:4:7  agents.list[1].id  w1",
      "3 errors, 1 warning in /c/openclaw.json",
    ]);
  });

  it("says the config is valid when there are no errors", () => {
    expect(formatConfigIssues({ path: "/c/openclaw.json", issues: [] })).toBe(
      "Config is valid in /c/openclaw.json (0 errors, 0 warnings)",
    );
  });

  it("colours marks only when asked", () => {
    expect(formatConfigIssues({ issues }, { color: true })).toContain("\u001b[31m✖");
    expect(formatConfigIssues({ issues })).not.toContain("\u001b[");
  });
});

describe("configIssuesToJson", () => {
  it("returns the --json shape", () => {
    expect(configIssuesToJson({ path: "/c/openclaw.json", issues })).toEqual({
      valid: false,
      path: "/c/openclaw.json",
      issues,
    });
  });
});
