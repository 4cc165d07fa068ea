import { describe, expect, it } from "vitest";
import { escapeXml, formatSkillsForPrompt, SKILLS_PROMPT_INSTRUCTION } from "./prompt.js";

describe("formatSkillsForPrompt", () => {
  it("is empty without ready skills", () => {
    expect(formatSkillsForPrompt([])).toBe("");
    const blocked = {
      name: "a",
      description: "b",
      location: "/a/SKILL.md",
      status: "blocked" as const,
    };
    expect(formatSkillsForPrompt([blocked])).toBe("");
  });

  it("prints the instruction line and one <skill> per ready skill, sorted by name", () => {
    const out = formatSkillsForPrompt([
      { name: "zeta", description: "Last one.", location: "/s/zeta/SKILL.md", status: "ready" },
      { name: "gone", description: "Shadowed.", location: "/x/SKILL.md", status: "shadowed" },
      { name: "alpha", description: "First\n  one.", location: "/s/alpha/SKILL.md" },
    ]);
    expect(out).toBe(
      [
        "When a task matches a skill's description, read that skill's SKILL.md at its <location> with the read tool before acting, and follow it; relative paths in a skill are relative to its folder.",
        "<available_skills>",
        "<skill><name>alpha</name><description>First one.</description><location>/s/alpha/SKILL.md</location></skill>",
        "<skill><name>zeta</name><description>Last one.</description><location>/s/zeta/SKILL.md</location></skill>",
        "</available_skills>",
      ].join("\n"),
    );
    expect(out.split("\n")[0]).toBe(SKILLS_PROMPT_INSTRUCTION);
  });

  it("escapes XML in every field", () => {
    const out = formatSkillsForPrompt([
      { name: "a&b", description: `Use <tags> & "quotes" 'too'`, location: "/p/<x>&/SKILL.md" },
    ]);
    expect(out).toContain(
      `<skill><name>a&amp;b</name><description>Use &lt;tags&gt; &amp; "quotes" 'too'</description><location>/p/&lt;x&gt;&amp;/SKILL.md</location></skill>`,
    );
    expect(escapeXml("</available_skills>")).toBe("&lt;/available_skills&gt;");
  });

  it("caps long descriptions", () => {
    const long = "word ".repeat(100);
    const out = formatSkillsForPrompt([{ name: "a", description: long, location: "/a" }], {
      maxDescriptionChars: 20,
    });
    expect(out).toContain("<description>word word word word…</description>");
  });

  it("gives byte-identical output for the same skills in any order", () => {
    const skills = ["c", "a", "b"].map((name) => ({
      name,
      description: `${name} skill`,
      location: `/s/${name}/SKILL.md`,
    }));
    const once = formatSkillsForPrompt(skills);
    expect(formatSkillsForPrompt([...skills].reverse())).toBe(once);
    expect(formatSkillsForPrompt(skills)).toBe(once);
  });
});
