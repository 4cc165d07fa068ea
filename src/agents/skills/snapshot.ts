// The per-session skills snapshot: taken once when a session starts and stored in the session
// entry (`skillsSnapshot`), so every run of the session sees the same list and prompt block.
// A skill added or changed mid-session shows up in the next session, never in the middle of a run.
import { formatSkillsForPrompt, type SkillsPromptOptions } from "./prompt.js";
import { SKILL_SOURCES, type SkillRecord, type SkillSource } from "./types.js";

/** Format version of {@link SkillsSnapshot}; a snapshot of another version is retaken. */
export const SKILLS_SNAPSHOT_VERSION = 1;

/** One ready skill as remembered by a snapshot. */
export interface SnapshotSkill {
  name: string;
  description: string;
  location: string;
  source: SkillSource;
}

/** A serializable (plain JSON) record of the skills a session was started with. */
export interface SkillsSnapshot {
  version: typeof SKILLS_SNAPSHOT_VERSION;
  /** When it was taken, ms since the epoch (like the session entry's `updatedAt`). */
  takenAt: number;
  skills: SnapshotSkill[];
  /** The prompt block built from `skills` ({@link formatSkillsForPrompt}); "" when none. */
  prompt: string;
}

/** Inputs of {@link takeSkillsSnapshot}: discovered records (only `ready` ones are kept). */
export interface TakeSkillsSnapshotParams {
  skills: readonly SkillRecord[];
  /** Clock, ms since the epoch; default `Date.now()`. */
  now?: number;
  prompt?: SkillsPromptOptions;
}

/** Freezes the ready skills and their prompt block for one session, sorted by name. */
export function takeSkillsSnapshot(params: TakeSkillsSnapshotParams): SkillsSnapshot {
  const skills = params.skills
    .filter((skill) => skill.status === "ready")
    .map(({ name, description, location, source }) => ({ name, description, location, source }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    version: SKILLS_SNAPSHOT_VERSION,
    takenAt: params.now ?? Date.now(),
    skills,
    prompt: formatSkillsForPrompt(skills, params.prompt),
  };
}

function isSnapshotSkill(value: unknown): value is SnapshotSkill {
  if (typeof value !== "object" || value === null) return false;
  const skill = value as Record<string, unknown>;
  return (
    typeof skill.name === "string" &&
    typeof skill.description === "string" &&
    typeof skill.location === "string" &&
    SKILL_SOURCES.includes(skill.source as SkillSource)
  );
}

/**
 * True when a stored value (e.g. `sessionEntry.skillsSnapshot` read from sessions.json) is a
 * snapshot of the current version that a run can reuse; otherwise take a fresh one.
 */
export function isSnapshotUsable(snapshot: unknown): snapshot is SkillsSnapshot {
  if (typeof snapshot !== "object" || snapshot === null) return false;
  const value = snapshot as Record<string, unknown>;
  return (
    value.version === SKILLS_SNAPSHOT_VERSION &&
    typeof value.takenAt === "number" &&
    Number.isFinite(value.takenAt) &&
    typeof value.prompt === "string" &&
    Array.isArray(value.skills) &&
    value.skills.every(isSnapshotSkill)
  );
}
