// Profile health in `usageStats` of auth-profiles.json: a failure puts the profile in cooldown
// (rate limits: 1, 5, 25, 60 min) or disables it (auth: 1 h doubling to 24 h; billing: 5 h doubling
// to 24 h, tunable with auth.cooldowns); a success clears it. Counters reset after a quiet window.

import type { OpenClawConfig } from "../../protocol/config/index.js";
import { type ProfileUsageStats, readAuthStore, updateAuthStore } from "./auth-store.js";
import type { AuthStoreCache } from "./auth-store-cache.js";
import type { FailureReason } from "./classify.js";
import { normalizeProviderId } from "./config-view.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Inputs of {@link markProfileFailure}. */
export interface MarkProfileFailureInput {
  agentDir: string;
  profileId: string;
  reason: FailureReason;
  now: number;
  /** For `auth.cooldowns` (billing backoff, failure window); optional. */
  cfg?: OpenClawConfig;
}

/** Inputs of {@link markProfileGood}. */
export interface MarkProfileGoodInput {
  agentDir: string;
  profileId: string;
  now: number;
  /** The runtime's parsed auth stores: the turn's own read is reused instead of a second parse. */
  authStores?: AuthStoreCache;
}

/** Whether an id names a stored profile (not `env:VAR` or `config`, which have no stats). */
export function isStoredProfileId(id: string): boolean {
  return id !== "config" && !id.startsWith("env:");
}

/** Inputs of {@link computeProfileBlock}. */
export interface ComputeBlockInput {
  stats: ProfileUsageStats;
  reason: FailureReason;
  now: number;
  provider?: string;
  cfg?: OpenClawConfig;
}

/** The new stats after one failure (pure): counters, then a cooldown or a disable window. */
export function computeProfileBlock(input: ComputeBlockInput): ProfileUsageStats {
  const { reason, now } = input;
  const cooldowns = input.cfg?.auth?.cooldowns ?? {};
  const windowMs = (cooldowns.failureWindowHours ?? 24) * HOUR;
  const stale =
    typeof input.stats.lastFailureAt === "number" && now - input.stats.lastFailureAt > windowMs;
  const stats: ProfileUsageStats = { ...input.stats };
  const counts = stale ? {} : { ...stats.failureCounts };
  counts[reason] = (counts[reason] ?? 0) + 1;
  stats.failureCounts = counts;
  stats.errorCount = (stale ? 0 : (stats.errorCount ?? 0)) + 1;
  stats.lastFailureAt = now;
  stats.lastFailureReason = reason;
  const n = counts[reason];
  if (reason === "billing") {
    const byProvider = input.provider
      ? cooldowns.billingBackoffHoursByProvider?.[input.provider]
      : undefined;
    const baseHours = byProvider ?? cooldowns.billingBackoffHours ?? 5;
    const maxHours = cooldowns.billingMaxHours ?? 24;
    stats.disabledUntil = now + Math.min(baseHours * 2 ** (n - 1), maxHours) * HOUR;
    stats.disabledReason = "billing";
  } else if (reason === "auth") {
    stats.disabledUntil = now + Math.min(HOUR * 2 ** (n - 1), 24 * HOUR);
    stats.disabledReason = "auth";
  } else {
    stats.cooldownUntil = now + Math.min(MINUTE * 5 ** (stats.errorCount - 1), HOUR);
  }
  return stats;
}

/** Records a failure of a stored profile and persists its cooldown; env/config ids are a no-op. */
export function markProfileFailure(input: MarkProfileFailureInput): ProfileUsageStats | undefined {
  if (!isStoredProfileId(input.profileId)) return undefined;
  let updated: ProfileUsageStats | undefined;
  updateAuthStore(input.agentDir, (store) => {
    const stored = store.profiles[input.profileId];
    const provider =
      typeof stored?.provider === "string" ? normalizeProviderId(stored.provider) : undefined;
    const stats = computeProfileBlock({
      stats: store.usageStats?.[input.profileId] ?? {},
      reason: input.reason,
      now: input.now,
      ...(provider ? { provider } : {}),
      ...(input.cfg ? { cfg: input.cfg } : {}),
    });
    store.usageStats = { ...store.usageStats, [input.profileId]: stats };
    updated = stats;
  });
  return updated;
}

/** Don't rewrite the file on every success only to move `lastUsed` a little. */
const LAST_USED_RESOLUTION_MS = MINUTE;

/**
 * Records a success: clears cooldown, disable and counters, sets `lastUsed` and the provider's
 * `lastGood`. Writes only when something changed, so a healthy run costs no disk write.
 */
export function markProfileGood(input: MarkProfileGoodInput): boolean {
  if (!isStoredProfileId(input.profileId)) return false;
  const { store, error } = input.authStores?.read(input.agentDir) ?? readAuthStore(input.agentDir);
  if (error) return false;
  const stored = store.profiles[input.profileId];
  if (!stored || typeof stored.provider !== "string") return false;
  const provider = normalizeProviderId(stored.provider);
  const stats = store.usageStats?.[input.profileId] ?? {};
  const unhealthy =
    (stats.errorCount ?? 0) > 0 ||
    stats.cooldownUntil !== undefined ||
    stats.disabledUntil !== undefined;
  const staleUse = input.now - (stats.lastUsed ?? 0) >= LAST_USED_RESOLUTION_MS;
  if (!unhealthy && !staleUse && store.lastGood?.[provider] === input.profileId) return false;
  updateAuthStore(input.agentDir, (fresh) => {
    const current = { ...fresh.usageStats?.[input.profileId] };
    delete current.cooldownUntil;
    delete current.disabledUntil;
    delete current.disabledReason;
    current.errorCount = 0;
    current.failureCounts = {};
    current.lastUsed = input.now;
    fresh.usageStats = { ...fresh.usageStats, [input.profileId]: current };
    fresh.lastGood = { ...fresh.lastGood, [provider]: input.profileId };
  });
  return true;
}
