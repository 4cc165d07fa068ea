import { describe, expect, it } from "vitest";
import { AGENTS_TEMPLATE, TOOLS_TEMPLATE, WORKSPACE_TEMPLATES } from "./templates.js";

describe("workspace templates", () => {
  it("lists the seven bootstrap files in injection order", () => {
    expect(WORKSPACE_TEMPLATES.map((t) => t.name)).toEqual([
      "AGENTS.md",
      "SOUL.md",
      "TOOLS.md",
      "IDENTITY.md",
      "USER.md",
      "HEARTBEAT.md",
      "BOOTSTRAP.md",
    ]);
  });

  it("keeps every template short, since they are injected every turn", () => {
    for (const template of WORKSPACE_TEMPLATES) {
      expect(template.content.length, template.name).toBeLessThan(1_500);
      expect(template.content.startsWith(`# ${template.name}`), template.name).toBe(true);
      expect(template.content.endsWith("\n"), template.name).toBe(true);
    }
    const total = WORKSPACE_TEMPLATES.reduce((sum, t) => sum + t.content.length, 0);
    expect(total).toBeLessThan(5_000);
  });

  it("says the workspace is the tools' cwd but not a sandbox", () => {
    for (const text of [AGENTS_TEMPLATE, TOOLS_TEMPLATE]) {
      expect(text).toMatch(/not a sandbox/i);
      expect(text).toMatch(/absolute paths reach/);
      expect(text).toMatch(/sandboxing is on/);
    }
  });

  it("explains daily notes and main-session-only long-term memory in AGENTS.md", () => {
    expect(AGENTS_TEMPLATE).toContain("memory/YYYY-MM-DD.md");
    expect(AGENTS_TEMPLATE).toContain("Not injected");
    expect(AGENTS_TEMPLATE).toMatch(/MEMORY\.md.*main session only/s);
  });
});
