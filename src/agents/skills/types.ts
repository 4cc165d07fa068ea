// Shapes shared by skill discovery, gating, the prompt block and the per-session snapshot.
import type { SkillsConfig } from "../../protocol/config/skills.js";

/** Where a skill was found; listed from highest to lowest precedence in {@link SKILL_SOURCES}. */
export type SkillSource = "workspace" | "managed" | "bundled" | "extra";

/** Source precedence, highest first (OpenClaw's order: `skills.load.extraDirs` is the lowest). */
export const SKILL_SOURCES: readonly SkillSource[] = ["workspace", "managed", "bundled", "extra"];

/**
 * What discovery decided about a skill: `ready` (listed in the prompt), `blocked` (a requirement is
 * missing), `disabled` (turned off by config), `shadowed` (a higher source has the same name),
 * `invalid` (SKILL.md unreadable or malformed).
 */
export type SkillStatus = "ready" | "blocked" | "disabled" | "shadowed" | "invalid";

/** One discovered skill and its verdict; every SKILL.md found yields exactly one record. */
export interface SkillRecord {
  name: string;
  description: string;
  /** Absolute path of the SKILL.md (what the model reads with the read tool). */
  location: string;
  source: SkillSource;
  status: SkillStatus;
  /** Why the skill is not ready, in plain words (absent when ready). */
  reason?: string;
}

/** A folder that could not be searched (unreadable, not a directory, configured but missing). */
export interface SkillProblem {
  source: SkillSource;
  path: string;
  message: string;
}

/** Result of discovery: every skill sorted by name (winner first), plus folders that failed. */
export interface SkillDiscovery {
  skills: SkillRecord[];
  problems: SkillProblem[];
}

/** `metadata.openclaw.requires`: what must be present for the skill to be offered. */
export interface SkillRequirements {
  /** Every binary must be on PATH. */
  bins: string[];
  /** At least one of these binaries must be on PATH. */
  anyBins: string[];
  /** Each variable must be set in the env or provided by `skills.entries.<name>`. */
  env: string[];
  /** Each config path must be truthy in openclaw.json. */
  config: string[];
}

/** The gating part of `metadata.openclaw`, normalized (lists always present). */
export interface SkillGates {
  always: boolean;
  /** Allowed `process.platform` values; empty means any. */
  os: string[];
  requires: SkillRequirements;
  /** The env var `skills.entries.<name>.apiKey` stands in for. */
  primaryEnv?: string;
  /** Key of the skill under `skills.entries` when it differs from the name. */
  skillKey?: string;
}

/** The config a discovery reads: `skills.*`, plus any path `requires.config` names. */
export interface SkillsHostConfig {
  skills?: SkillsConfig;
}
