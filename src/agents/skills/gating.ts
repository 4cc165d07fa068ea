// Gating: reads `metadata.openclaw` into normalized gates, then decides whether a skill is ready,
// blocked (a requirement is missing) or disabled (config turned it off), with the reason in words.
import { accessSync, constants, statSync } from "node:fs";
import { join } from "node:path";
import { getConfigValue, isPlainObject } from "../../config/config-path.js";
import type { SkillEntry } from "../../protocol/config/skills.js";
import type { SkillGates, SkillSource, SkillStatus, SkillsHostConfig } from "./types.js";

/** Reads a list field: a string is a one-item list; anything but strings is an error. */
function stringList(value: unknown, label: string): string[] | { error: string } {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return value.map((item) => item.trim()).filter((item) => item !== "");
  }
  return { error: `${label} must be a list of strings` };
}

/** Normalizes `metadata.openclaw` (legacy `metadata.clawdbot`); wrong types are errors, not ignored. */
export function readSkillGates(metadata: Record<string, unknown> | undefined):
  | SkillGates
  | {
      error: string;
    } {
  const key = metadata && "openclaw" in metadata ? "openclaw" : "clawdbot";
  const raw = metadata?.[key];
  const base = `metadata.${key}`;
  if (raw === undefined) {
    return { always: false, os: [], requires: { bins: [], anyBins: [], env: [], config: [] } };
  }
  if (!isPlainObject(raw)) return { error: `${base} must be an object` };
  const requires = raw.requires ?? {};
  if (!isPlainObject(requires)) return { error: `${base}.requires must be an object` };
  const lists = {
    os: stringList(raw.os, `${base}.os`),
    bins: stringList(requires.bins, `${base}.requires.bins`),
    anyBins: stringList(requires.anyBins, `${base}.requires.anyBins`),
    env: stringList(requires.env, `${base}.requires.env`),
    config: stringList(requires.config, `${base}.requires.config`),
  };
  for (const list of Object.values(lists)) if ("error" in list) return list;
  const { os, bins, anyBins, env, config } = lists as Record<keyof typeof lists, string[]>;
  if (raw.always !== undefined && typeof raw.always !== "boolean") {
    return { error: `${base}.always must be true or false` };
  }
  const gates: SkillGates = {
    always: raw.always === true,
    os,
    requires: { bins, anyBins, env, config },
  };
  if (typeof raw.primaryEnv === "string" && raw.primaryEnv) gates.primaryEnv = raw.primaryEnv;
  if (typeof raw.skillKey === "string" && raw.skillKey) gates.skillKey = raw.skillKey;
  return gates;
}

/** How binaries are looked up: the PATH string, the platform, and a per-discovery memo. */
export interface BinaryLookup {
  path: string;
  platform: string;
  /** Windows executable extensions (`PATHEXT`); ignored elsewhere. */
  pathExt?: string;
  /** Memo shared by one discovery run (owned by the caller, so no module state). */
  memo: Map<string, boolean>;
}

function isExecutableFile(candidate: string, platform: string): boolean {
  try {
    if (!statSync(candidate).isFile()) return false;
    if (platform !== "win32") accessSync(candidate, constants.X_OK);
    return true;
  } catch {
    // Missing, unreadable or not executable: converted to "not this candidate".
    return false;
  }
}

/** True when `name` is an executable file in one of the PATH folders (with PATHEXT on Windows). */
export function hasBinary(name: string, lookup: BinaryLookup): boolean {
  const cached = lookup.memo.get(name);
  if (cached !== undefined) return cached;
  const windows = lookup.platform === "win32";
  const dirs = lookup.path.split(windows ? ";" : ":").filter((dir) => dir !== "");
  const exts = windows
    ? ["", ...(lookup.pathExt ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean)]
    : [""];
  const found = dirs.some((dir) =>
    exts.some((ext) => isExecutableFile(join(dir, `${name}${ext}`), lookup.platform)),
  );
  lookup.memo.set(name, found);
  return found;
}

/** Everything a gate decision looks at for one skill. */
export interface GateInput {
  name: string;
  source: SkillSource;
  gates: SkillGates;
  config: SkillsHostConfig;
  env: Record<string, string | undefined>;
  platform: string;
  binaries: BinaryLookup;
  /** The agent's `skills` allowlist (`agents.list[].skills`), when it has one. */
  agentSkills?: readonly string[];
}

/** The verdict of {@link evaluateSkillGates}: ready, or blocked/disabled with the reason. */
export interface GateVerdict {
  status: Extract<SkillStatus, "ready" | "blocked" | "disabled">;
  reason?: string;
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

/** Requirement checks (`requires.*`); each miss becomes one reason. */
function missingRequirements(input: GateInput, entry: SkillEntry | undefined): string[] {
  const { requires, primaryEnv } = input.gates;
  const reasons: string[] = [];
  const bins = requires.bins.filter((bin) => !hasBinary(bin, input.binaries));
  if (bins.length) {
    reasons.push(`missing ${plural(bins.length, "binary", "binaries")}: ${bins.join(", ")}`);
  }
  if (requires.anyBins.length && !requires.anyBins.some((bin) => hasBinary(bin, input.binaries))) {
    reasons.push(`missing binary: one of ${requires.anyBins.join(", ")}`);
  }
  const provided = (name: string): boolean =>
    Boolean(input.env[name]?.trim()) ||
    Boolean(entry?.env?.[name]?.trim()) ||
    (name === primaryEnv && entry?.apiKey !== undefined && entry.apiKey !== "");
  const env = requires.env.filter((name) => !provided(name));
  if (env.length) reasons.push(`missing env: ${env.join(", ")}`);
  const unset = requires.config.filter((path) => {
    const found = getConfigValue(input.config, path);
    return !found.ok || !found.value;
  });
  if (unset.length) reasons.push(`config not set: ${unset.join(", ")}`);
  return reasons;
}

/** Config switches first (disabled), then os, then `always`, then requirements (blocked). */
export function evaluateSkillGates(input: GateInput): GateVerdict {
  const skills = input.config.skills;
  const key = input.gates.skillKey ?? input.name;
  const entry = skills?.entries?.[key] ?? skills?.entries?.[input.name];
  if (input.agentSkills && !input.agentSkills.includes(input.name)) {
    return { status: "disabled", reason: "not in this agent's skills list (agents.list[].skills)" };
  }
  if (entry?.enabled === false) {
    return { status: "disabled", reason: `disabled in config (skills.entries.${key}.enabled)` };
  }
  const allow = skills?.allowBundled;
  if (input.source === "bundled" && Array.isArray(allow) && !allow.includes(input.name)) {
    return { status: "disabled", reason: "bundled skill not in skills.allowBundled" };
  }
  const { os } = input.gates;
  if (os.length && !os.includes(input.platform)) {
    return { status: "blocked", reason: `os ${input.platform} not in [${os.join(", ")}]` };
  }
  if (input.gates.always) return { status: "ready" };
  const reasons = missingRequirements(input, entry);
  return reasons.length ? { status: "blocked", reason: reasons.join("; ") } : { status: "ready" };
}
