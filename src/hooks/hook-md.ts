// Reads a hook folder's HOOK.md: the `---` frontmatter (`name`, `description`, `homepage`, and
// `metadata` as JSON/JSON5 with OpenClaw's `openclaw` block: emoji, events, export, os, always,
// requires {bins, anyBins, env, config}). The same frontmatter dialect as SKILL.md; a wrong type is an
// error naming the field, never silently ignored.
import { parseSkillFrontmatter } from "../agents/skills/frontmatter.js";
import { readSkillGates } from "../agents/skills/gating.js";
import { isPlainObject } from "../config/config-path.js";
import type { HookMetadata } from "./types.js";

/** The parsed HOOK.md, or why it is malformed. */
export type HookMdResult = { ok: true; hook: HookMetadata } | { ok: false; error: string };

const HOOK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const EVENT_KEY = /^[a-z]+(:[a-z_]+)?$/;

function readEvents(block: Record<string, unknown>): string[] | { error: string } {
  const raw = block.events;
  if (raw === undefined) return [];
  const list = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(list) || !list.every((item) => typeof item === "string")) {
    return { error: "metadata.openclaw.events must be a list of event names" };
  }
  const bad = list.find((event) => !EVENT_KEY.test(event));
  if (bad !== undefined) {
    return { error: `metadata.openclaw.events: "${bad}" is not an event name (e.g. command:new)` };
  }
  return [...new Set(list)];
}

/** Parses HOOK.md text; `folderName` is the name when the frontmatter has none. */
export function parseHookMd(source: string, folderName: string): HookMdResult {
  const parsed = parseSkillFrontmatter(source);
  if (!parsed.ok) return { ok: false, error: parsed.error.replace("SKILL.md", "HOOK.md") };
  const name = parsed.fields.name?.trim() || folderName;
  if (!HOOK_NAME.test(name)) {
    return { ok: false, error: `name "${name}" must be letters, digits and ._- (at most 64)` };
  }
  const gates = readSkillGates(parsed.metadata);
  if ("error" in gates) return { ok: false, error: gates.error };
  const raw = parsed.metadata?.openclaw;
  const block = isPlainObject(raw) ? raw : {};
  const events = readEvents(block);
  if ("error" in events) return { ok: false, error: events.error };
  if (events.length === 0) {
    return {
      ok: false,
      error: "metadata.openclaw.events names no event: the hook would never run",
    };
  }
  if (block.export !== undefined && (typeof block.export !== "string" || block.export === "")) {
    return { ok: false, error: "metadata.openclaw.export must be an export name" };
  }
  const hook: HookMetadata = {
    name,
    description: parsed.fields.description?.trim() ?? "",
    events,
    exportName: typeof block.export === "string" ? block.export : "default",
    os: gates.os,
    always: gates.always,
    requires: gates.requires,
  };
  const homepage = parsed.fields.homepage ?? block.homepage;
  if (typeof homepage === "string" && homepage) hook.homepage = homepage;
  if (typeof block.emoji === "string" && block.emoji) hook.emoji = block.emoji;
  return { ok: true, hook };
}
