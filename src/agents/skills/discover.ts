// Skill discovery: scan the source folders in precedence order, parse each SKILL.md, let the
// highest source win each name, then gate the winners. Every SKILL.md found yields one record;
// an unreadable folder is a reported problem, never a crash.
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { expandHome } from "../../config/paths.js";
import { parseSkillFrontmatter } from "./frontmatter.js";
import { type BinaryLookup, evaluateSkillGates, readSkillGates } from "./gating.js";
import type {
  SkillDiscovery,
  SkillGates,
  SkillProblem,
  SkillRecord,
  SkillSource,
  SkillsHostConfig,
} from "./types.js";

/** Inputs of {@link discoverSkills}; everything from the outside world is passed in. */
export interface DiscoverSkillsParams {
  /** The agent's workspace; its skills live in `<workspace>/skills`. */
  workspaceDir: string;
  /** The state dir (`~/.openclaw`); managed skills live in `<stateDir>/skills`. */
  stateDir: string;
  /** The package's bundled `skills/` folder (see `resolveBundledSkillsDir`); omitted = none. */
  bundledDir?: string;
  /** The loaded config: `skills.*` settings and the paths `requires.config` names. */
  config: SkillsHostConfig;
  /** Environment for `requires.env` and `PATH` (+ `PATHEXT` on Windows) for `requires.bins`. */
  env: Record<string, string | undefined>;
  /** `process.platform` value to gate `os` on; default the current one. */
  platform?: string;
  /** Home for `~` in `skills.load.extraDirs`; default `env.HOME`, else the OS home. */
  home?: string;
  /** The agent's skill allowlist (`agents.list[].skills`); skills not in it are disabled. */
  agentSkills?: readonly string[];
}

/** One folder searched for skills, with the source it counts as. */
export interface SkillSourceDir {
  source: SkillSource;
  dir: string;
}

/** The folders searched, highest precedence first: workspace, managed, bundled, extraDirs in order. */
export function listSkillSourceDirs(
  params: Pick<
    DiscoverSkillsParams,
    "workspaceDir" | "stateDir" | "bundledDir" | "config" | "env" | "home"
  >,
): SkillSourceDir[] {
  const home = params.home ?? (params.env.HOME?.trim() || homedir());
  const dirs: SkillSourceDir[] = [
    { source: "workspace", dir: resolve(params.workspaceDir, "skills") },
    { source: "managed", dir: resolve(params.stateDir, "skills") },
  ];
  if (params.bundledDir) dirs.push({ source: "bundled", dir: resolve(params.bundledDir) });
  const extra = params.config.skills?.load?.extraDirs ?? [];
  for (const dir of extra) {
    if (typeof dir === "string" && dir.trim()) {
      dirs.push({ source: "extra", dir: expandHome(dir.trim(), home) });
    }
  }
  return dirs;
}

/** A SKILL.md found on disk, before parsing. */
interface Candidate {
  source: SkillSource;
  location: string;
  /** Position in the scan: lower = higher precedence. */
  rank: number;
}

/** A candidate after parsing: valid (with gates) or invalid (with the reason). */
type Parsed = Candidate &
  (
    | { valid: true; name: string; description: string; gates: SkillGates }
    | {
        valid: false;
        name: string;
        description: string;
        reason: string;
      }
  );

function errorCode(err: unknown): string {
  if (err instanceof Error) return (err as NodeJS.ErrnoException).code ?? err.message;
  return String(err);
}

function isFile(path: string): boolean | { error: string } {
  try {
    return statSync(path).isFile();
  } catch (err) {
    const code = errorCode(err);
    return code === "ENOENT" || code === "ENOTDIR" ? false : { error: code };
  }
}

/** Lists the SKILL.md files of one source folder; problems are collected, not thrown. */
function scanSource(src: SkillSourceDir, problems: SkillProblem[]): string[] {
  const own = join(src.dir, "SKILL.md");
  // An extra dir may point straight at one skill folder.
  if (src.source === "extra" && isFile(own) === true) return [own];
  let names: string[];
  try {
    names = readdirSync(src.dir);
  } catch (err) {
    const code = errorCode(err);
    const quiet = code === "ENOENT" && (src.source === "workspace" || src.source === "managed");
    if (!quiet) {
      const message =
        code === "ENOENT"
          ? "folder not found"
          : code === "ENOTDIR"
            ? "not a folder"
            : `cannot read folder (${code})`;
      problems.push({ source: src.source, path: src.dir, message });
    }
    return [];
  }
  const found: string[] = [];
  for (const name of names.sort()) {
    if (name.startsWith(".") || name === "node_modules") continue;
    const file = join(src.dir, name, "SKILL.md");
    const check = isFile(file);
    if (check === true) found.push(file);
    else if (check !== false) {
      const message = `cannot read skill folder (${check.error})`;
      problems.push({ source: src.source, path: join(src.dir, name), message });
    }
  }
  return found;
}

function parseCandidate(candidate: Candidate): Parsed {
  const fallbackName = basename(dirname(candidate.location));
  const invalid = (reason: string, name = fallbackName, description = ""): Parsed => ({
    ...candidate,
    valid: false,
    name,
    description,
    reason,
  });
  let text: string;
  try {
    text = readFileSync(candidate.location, "utf8");
  } catch (err) {
    return invalid(`cannot read SKILL.md (${errorCode(err)})`);
  }
  const parsed = parseSkillFrontmatter(text);
  if (!parsed.ok) return invalid(parsed.error);
  const name = parsed.fields.name?.trim() ?? "";
  const description = parsed.fields.description?.trim() ?? "";
  if (!name) return invalid("frontmatter has no name", fallbackName, description);
  if (!description) return invalid("frontmatter has no description", name);
  const gates = readSkillGates(parsed.metadata);
  if ("error" in gates) return invalid(gates.error, name, description);
  return { ...candidate, valid: true, name, description, gates };
}

/** The real path, so a folder listed twice (extraDirs = managed dir, symlinks) counts once. */
function identity(location: string): string {
  try {
    return realpathSync(location);
  } catch {
    // Vanished between scan and now: fall back to the path itself (converted, not thrown).
    return location;
  }
}

/** Finds every skill of the sources, decides each one's status, and sorts by name (winner first). */
export function discoverSkills(params: DiscoverSkillsParams): SkillDiscovery {
  const problems: SkillProblem[] = [];
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const src of listSkillSourceDirs(params)) {
    for (const location of scanSource(src, problems)) {
      const id = identity(location);
      if (seen.has(id)) continue;
      seen.add(id);
      candidates.push({ source: src.source, location, rank: candidates.length });
    }
  }
  const platform = params.platform ?? process.platform;
  const binaries: BinaryLookup = {
    path: params.env.PATH ?? params.env.Path ?? "",
    platform,
    ...(params.env.PATHEXT ? { pathExt: params.env.PATHEXT } : {}),
    memo: new Map(),
  };
  const winners = new Map<string, Parsed>();
  const records: Array<SkillRecord & { rank: number }> = [];
  for (const item of candidates.map(parseCandidate)) {
    const base = { name: item.name, description: item.description, location: item.location };
    const row = { ...base, source: item.source, rank: item.rank };
    if (!item.valid) {
      records.push({ ...row, status: "invalid", reason: item.reason });
      continue;
    }
    const winner = winners.get(item.name);
    if (winner) {
      const reason = `shadowed by the ${winner.source} skill at ${winner.location}`;
      records.push({ ...row, status: "shadowed", reason });
      continue;
    }
    winners.set(item.name, item);
    const verdict = evaluateSkillGates({
      name: item.name,
      source: item.source,
      gates: item.gates,
      config: params.config,
      env: params.env,
      platform,
      binaries,
      ...(params.agentSkills ? { agentSkills: params.agentSkills } : {}),
    });
    records.push({ ...row, ...verdict });
  }
  records.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.rank - b.rank));
  const skills = records.map(({ rank: _rank, ...record }) => record);
  return { skills, problems };
}

/** The ready skills of a discovery, in its (deterministic) order: what the prompt lists. */
export function readySkills(discovery: SkillDiscovery): SkillRecord[] {
  return discovery.skills.filter((skill) => skill.status === "ready");
}
