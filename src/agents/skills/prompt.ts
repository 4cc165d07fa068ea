// The skills block of the system prompt: one instruction line and an <available_skills> list of
// name, description and location. The instructions stay in SKILL.md; the model reads them on demand.
import type { SkillRecord } from "./types.js";

/** The line that tells the model how to use the list below it. */
export const SKILLS_PROMPT_INSTRUCTION =
  "When a task matches a skill's description, read that skill's SKILL.md at its <location> with the read tool before acting, and follow it; relative paths in a skill are relative to its folder.";

/** Default cap on a description in the prompt, so one verbose skill cannot bloat every turn. */
export const DEFAULT_PROMPT_DESCRIPTION_CHARS = 300;

/** What the prompt needs of a skill; a record with a status other than `ready` is skipped. */
export type PromptSkill = Pick<SkillRecord, "name" | "description" | "location"> & {
  status?: SkillRecord["status"];
};

/** Options of {@link formatSkillsForPrompt}. */
export interface SkillsPromptOptions {
  /** Longer descriptions are cut and end in "…"; default {@link DEFAULT_PROMPT_DESCRIPTION_CHARS}. */
  maxDescriptionChars?: number;
}

/** Escapes `&`, `<` and `>` for XML element text (quotes stay readable: no attributes are used). */
export function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  return `${flat.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

function compare(a: PromptSkill, b: PromptSkill): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.location < b.location ? -1 : a.location > b.location ? 1 : 0;
}

/**
 * Formats ready skills as the instruction line plus `<available_skills>`, sorted by name so the
 * same skills always give the same bytes (prompt caches hit). Empty string when there are none.
 */
export function formatSkillsForPrompt(
  skills: readonly PromptSkill[],
  options: SkillsPromptOptions = {},
): string {
  const max = options.maxDescriptionChars ?? DEFAULT_PROMPT_DESCRIPTION_CHARS;
  const listed = skills.filter((skill) => skill.status === undefined || skill.status === "ready");
  if (listed.length === 0) return "";
  const rows = [...listed].sort(compare).map((skill) => {
    const name = escapeXml(oneLine(skill.name, Number.MAX_SAFE_INTEGER));
    const description = escapeXml(oneLine(skill.description, max));
    const location = escapeXml(skill.location);
    return `<skill><name>${name}</name><description>${description}</description><location>${location}</location></skill>`;
  });
  return [SKILLS_PROMPT_INSTRUCTION, "<available_skills>", ...rows, "</available_skills>"].join(
    "\n",
  );
}
