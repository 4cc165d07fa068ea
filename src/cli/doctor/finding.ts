// The shape every `pincer doctor` check reports in (OpenClaw's health-check contract: checkId, severity,
// message, path/line/column, fixHint), plus the safe repair `--fix` may apply for it.
import type { LoadedConfig } from "../../config/index.js";

/** The checks doctor runs, by their stable ids (for scripts reading `--json`). */
export type DoctorCheckId =
  | "config"
  | "permissions"
  | "locks"
  | "orphan-transcripts"
  | "workspaces"
  | "providers";

/** How bad a finding is: errors and warnings make doctor exit 1, info does not. */
export type DoctorSeverity = "error" | "warning" | "info";

/** A safe repair: what it does, in words, and doing it. */
export interface DoctorRepair {
  action: string;
  apply: () => Promise<void> | void;
}

/** One problem (or note) a check found. */
export interface DoctorFinding {
  checkId: DoctorCheckId;
  severity: DoctorSeverity;
  message: string;
  /** The file or directory concerned (the config file for config issues). */
  path?: string;
  line?: number;
  column?: number;
  /** What to do about it, when doctor does not do it itself. */
  fixHint?: string;
  /** Set when `--fix` can repair it safely. */
  repair?: DoctorRepair;
}

/** What every check reads: the loaded config (valid or not), the environment and the switches. */
export interface DoctorScope {
  loaded: LoadedConfig;
  env: Record<string, string | undefined>;
  /** `--offline`: no network probes. */
  offline: boolean;
  now: () => number;
  /** The OS platform (Windows has no POSIX modes to check). */
  platform: NodeJS.Platform;
}

/** A check: finds problems, never changes anything (repairs are returned, not run). */
export interface DoctorCheck {
  id: DoctorCheckId;
  detect: (scope: DoctorScope) => Promise<DoctorFinding[]>;
}

/** `0755`-style mode of a stat's permission bits. */
export function modeText(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, "0")}`;
}

/** The error's message, for findings about a check or repair that failed. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
