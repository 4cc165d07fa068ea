import { describe, expect, it } from "vitest";
import { formatSkillsForPrompt } from "./prompt.js";
import { isSnapshotUsable, SKILLS_SNAPSHOT_VERSION, takeSkillsSnapshot } from "./snapshot.js";
import type { SkillRecord } from "./types.js";

const records: SkillRecord[] = [
  {
    name: "notes",
    description: "Keep notes",
    location: "/ws/skills/notes/SKILL.md",
    source: "workspace",
    status: "ready",
  },
  {
    name: "notes",
    description: "Old notes",
    location: "/b/notes/SKILL.md",
    source: "bundled",
    status: "shadowed",
    reason: "shadowed by the workspace skill at /ws/skills/notes/SKILL.md",
  },
  {
    name: "gh",
    description: "GitHub",
    location: "/b/gh/SKILL.md",
    source: "bundled",
    status: "blocked",
    reason: "missing binary: gh",
  },
  {
    name: "cfg",
    description: "Config",
    location: "/b/cfg/SKILL.md",
    source: "bundled",
    status: "ready",
  },
];

describe("takeSkillsSnapshot", () => {
  it("keeps only ready skills, sorted, with their prompt block", () => {
    const snapshot = takeSkillsSnapshot({ skills: records, now: 1_700_000_000_000 });
    expect(snapshot).toEqual({
      version: SKILLS_SNAPSHOT_VERSION,
      takenAt: 1_700_000_000_000,
      skills: [
        { name: "cfg", description: "Config", location: "/b/cfg/SKILL.md", source: "bundled" },
        {
          name: "notes",
          description: "Keep notes",
          location: "/ws/skills/notes/SKILL.md",
          source: "workspace",
        },
      ],
      prompt: formatSkillsForPrompt(records),
    });
    expect(snapshot.prompt).not.toContain("Old notes");
    expect(snapshot.prompt).not.toContain("GitHub");
  });

  it("survives a JSON round trip (as stored in sessions.json) and stays usable", () => {
    const snapshot = takeSkillsSnapshot({ skills: records, now: 5 });
    const stored: unknown = JSON.parse(JSON.stringify({ skillsSnapshot: snapshot })).skillsSnapshot;
    expect(stored).toEqual(snapshot);
    expect(isSnapshotUsable(stored)).toBe(true);
  });

  it("stays fixed when the skills change afterwards (picked up by the next session)", () => {
    const snapshot = takeSkillsSnapshot({ skills: records, now: 5 });
    const changed = [...records, { ...records[3], name: "new", location: "/b/new/SKILL.md" }];
    expect(snapshot.skills.map((s) => s.name)).toEqual(["cfg", "notes"]);
    expect(takeSkillsSnapshot({ skills: changed, now: 6 }).skills.map((s) => s.name)).toEqual([
      "cfg",
      "new",
      "notes",
    ]);
  });

  it("yields an empty prompt when nothing is ready", () => {
    expect(takeSkillsSnapshot({ skills: [records[2]], now: 1 })).toMatchObject({
      skills: [],
      prompt: "",
    });
  });
});

describe("isSnapshotUsable", () => {
  const good = takeSkillsSnapshot({ skills: records, now: 1 });
  it("rejects anything that is not a current snapshot", () => {
    expect(isSnapshotUsable(undefined)).toBe(false);
    expect(isSnapshotUsable("x")).toBe(false);
    expect(isSnapshotUsable({ ...good, version: 0 })).toBe(false);
    expect(isSnapshotUsable({ ...good, prompt: 1 })).toBe(false);
    expect(isSnapshotUsable({ ...good, takenAt: "yesterday" })).toBe(false);
    expect(isSnapshotUsable({ ...good, skills: [{ name: "a" }] })).toBe(false);
    expect(
      isSnapshotUsable({ ...good, skills: [{ ...good.skills[0], source: "elsewhere" }] }),
    ).toBe(false);
    expect(isSnapshotUsable(good)).toBe(true);
  });
});
