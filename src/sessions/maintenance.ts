// Retention (`session.maintenance`): prune entries idle longer than `pruneAfter` (default 30d), cap the
// count at `maxEntries` (default 5000) dropping the least recently updated, and remove transcript
// archives older than the prune window. Planning is pure; the store applies the plan.
import type { ArchiveFile } from "./archive.js";
import type { RecencyNode } from "./recency.js";

/** The `session.maintenance` block as written in openclaw.json (unknown keys ignored). */
export interface SessionMaintenanceConfig {
  mode?: "enforce" | "warn";
  pruneAfter?: string | number;
  /** Legacy: prune age in days. */
  pruneDays?: number;
  maxEntries?: number;
  /** How long `*.reset.*` archives are kept (default: pruneAfter); `false` keeps them forever. */
  resetArchiveRetention?: string | number | false;
  [key: string]: unknown;
}

/** Resolved maintenance settings. */
export interface MaintenanceSettings {
  mode: "enforce" | "warn";
  pruneAfterMs: number;
  maxEntries: number;
  /** null: reset archives are never removed. */
  resetArchiveRetentionMs: number | null;
}

/** Defaults of OpenClaw's legacy file store. */
export const DEFAULT_PRUNE_AFTER_MS = 30 * 24 * 60 * 60 * 1000;
/** Default cap on entries per store. */
export const DEFAULT_MAX_ENTRIES = 5000;

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Parses `"30d"`, `"12h"`, `"90m"`, `"45s"`, `"500ms"`, `"2w"` (a number is milliseconds); undefined if invalid. */
export function parseDurationMs(raw: string | number | undefined): number | undefined {
  if (typeof raw === "number") return Number.isFinite(raw) && raw >= 0 ? raw : undefined;
  if (typeof raw !== "string") return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/i.exec(raw);
  if (!match) return undefined;
  const unit = (match[2] ?? "ms").toLowerCase();
  return Number(match[1]) * (UNIT_MS[unit] ?? 1);
}

/** Resolves the config block to settings; invalid values fall back to defaults and are reported. */
export function resolveMaintenanceSettings(raw: SessionMaintenanceConfig | undefined): {
  settings: MaintenanceSettings;
  problems: string[];
} {
  const problems: string[] = [];
  const cfg = raw ?? {};
  let pruneAfterMs = DEFAULT_PRUNE_AFTER_MS;
  if (cfg.pruneAfter !== undefined) {
    const parsed = parseDurationMs(cfg.pruneAfter);
    if (parsed === undefined)
      problems.push(
        `session.maintenance.pruneAfter: bad duration ${JSON.stringify(cfg.pruneAfter)}`,
      );
    else pruneAfterMs = parsed;
  } else if (typeof cfg.pruneDays === "number" && cfg.pruneDays > 0) {
    pruneAfterMs = cfg.pruneDays * UNIT_MS.d!;
  }
  let maxEntries = DEFAULT_MAX_ENTRIES;
  if (cfg.maxEntries !== undefined) {
    if (Number.isInteger(cfg.maxEntries) && cfg.maxEntries > 0) maxEntries = cfg.maxEntries;
    else problems.push(`session.maintenance.maxEntries: expected a positive integer`);
  }
  let resetArchiveRetentionMs: number | null = pruneAfterMs;
  if (cfg.resetArchiveRetention === false) resetArchiveRetentionMs = null;
  else if (cfg.resetArchiveRetention !== undefined) {
    const parsed = parseDurationMs(cfg.resetArchiveRetention);
    if (parsed === undefined)
      problems.push(`session.maintenance.resetArchiveRetention: bad duration`);
    else resetArchiveRetentionMs = parsed;
  }
  const mode = cfg.mode === "warn" ? "warn" : "enforce";
  return { settings: { mode, pruneAfterMs, maxEntries, resetArchiveRetentionMs }, problems };
}

/** One entry the plan removes. */
export interface PrunedSession {
  key: string;
  sessionId: string;
  updatedAt: number;
  reason: "stale" | "over-limit";
}

/** Inputs for {@link planPrune}. */
export interface PlanPruneParams {
  /** The store's least recently updated node (the plan walks toward newer ones). */
  oldest: RecencyNode | null;
  size: number;
  now: number;
  settings: MaintenanceSettings;
}

/**
 * Entries to remove: every unpinned one idle longer than pruneAfter, then the least recently updated
 * until at most maxEntries remain. Walks from the old end, so its cost is the number removed.
 */
export function planPrune(params: PlanPruneParams): PrunedSession[] {
  const { settings } = params;
  const cutoff = params.now - settings.pruneAfterMs;
  const plan: PrunedSession[] = [];
  let remaining = params.size;
  for (let node = params.oldest; node; node = node.newer) {
    const { entry } = node;
    // Pinned entries count toward the cap but are never removed.
    if (typeof entry.pinnedAt === "number") continue;
    const stale = entry.updatedAt < cutoff;
    if (!stale && remaining <= settings.maxEntries) break;
    plan.push({
      key: node.key,
      sessionId: entry.sessionId,
      updatedAt: entry.updatedAt,
      reason: stale ? "stale" : "over-limit",
    });
    remaining -= 1;
  }
  return plan;
}

/** Archives old enough to delete: `deleted` ones after pruneAfter, `reset` ones after their retention. */
export function planArchiveSweep(params: {
  archives: readonly ArchiveFile[];
  now: number;
  settings: MaintenanceSettings;
}): ArchiveFile[] {
  const { settings, now } = params;
  return params.archives.filter((archive) => {
    const keepMs =
      archive.reason === "reset" ? settings.resetArchiveRetentionMs : settings.pruneAfterMs;
    return keepMs !== null && archive.archivedAt < now - keepMs;
  });
}
