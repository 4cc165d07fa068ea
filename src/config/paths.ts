// Where the config file, the state dir and the default workspaces live.
// Everything is derived from an explicit env + profile so tests never touch the real ~/.openclaw.
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

/** The resolved locations every other module derives its paths from. */
export interface StatePaths {
  /** Home directory used for `~` expansion. */
  home: string;
  /** `OPENCLAW_STATE_DIR`, else `~/.openclaw` (or `~/.openclaw-<profile>`). */
  stateDir: string;
  /** `OPENCLAW_CONFIG_PATH`, else `<stateDir>/openclaw.json`. */
  configPath: string;
  /** Folder holding default workspaces: `OPENCLAW_STATE_DIR`, else `~/.openclaw` (also with a profile). */
  workspaceBase: string;
  /** Active profile name, when one is set and is not `default`. */
  profile?: string;
}

/** Inputs for {@link resolveStatePaths}: the environment and an optional `--profile`. */
export interface StatePathsParams {
  env: Record<string, string | undefined>;
  /** `--profile NAME`; wins over `OPENCLAW_PROFILE`. */
  profile?: string;
}

/** A state-dir profile name: it becomes part of a directory name, so no separators, `:` or `..`. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** True when `name` can select `~/.openclaw-<name>` (or is `default`): no path tricks. */
export function isValidProfileName(name: string): boolean {
  return name.toLowerCase() === "default" || (PROFILE_NAME.test(name) && !name.includes(".."));
}

/** A profile name (from `--profile` or `OPENCLAW_PROFILE`) that would leave `~/.openclaw-*`. */
export class InvalidProfileNameError extends Error {
  constructor(
    readonly profile: string,
    readonly source: "--profile" | "OPENCLAW_PROFILE",
  ) {
    super(
      `${source} "${profile}" is not a valid state-dir profile name (letters, digits, . _ -; it selects ~/.openclaw-<name>)`,
    );
    this.name = "InvalidProfileNameError";
  }
}

/** Resolves state dir, config path and workspace base from env and profile, as OpenClaw does.
 * Throws {@link InvalidProfileNameError} for a profile name with separators or `..` (fail closed:
 * `OPENCLAW_PROFILE=../x` must never pick a state dir outside `~/.openclaw-*`). */
export function resolveStatePaths(params: StatePathsParams): StatePaths {
  const { env } = params;
  const home = env.HOME?.trim() || homedir();
  const source = params.profile !== undefined ? "--profile" : "OPENCLAW_PROFILE";
  const rawProfile = (params.profile ?? env.OPENCLAW_PROFILE ?? "").trim();
  if (rawProfile !== "" && !isValidProfileName(rawProfile))
    throw new InvalidProfileNameError(rawProfile, source);
  const profile =
    rawProfile !== "" && rawProfile.toLowerCase() !== "default" ? rawProfile : undefined;
  const explicitState = env.OPENCLAW_STATE_DIR?.trim();
  const baseDir = join(home, ".openclaw");
  const stateDir = explicitState
    ? expandHome(explicitState, home)
    : profile
      ? `${baseDir}-${profile}`
      : baseDir;
  const explicitConfig = env.OPENCLAW_CONFIG_PATH?.trim();
  const configPath = explicitConfig
    ? expandHome(explicitConfig, home)
    : join(stateDir, "openclaw.json");
  const workspaceBase = explicitState ? stateDir : baseDir;
  return profile
    ? { home, stateDir, configPath, workspaceBase, profile }
    : { home, stateDir, configPath, workspaceBase };
}

/** Expands a leading `~` and makes the path absolute (relative paths resolve against cwd). */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/") || path.startsWith("~\\")) return join(home, path.slice(2));
  return isAbsolute(path) ? path : resolve(path);
}
