// Session lifecycle policies (`session.reset`, `resetByType`, `resetByChannel`, legacy
// `idleMinutes`, `resetTriggers`): whether a session has expired and must start a new session id on
// its next message, and when it will next. Pure: config, entry, key and the clock come in as values.
import type { SessionConfig, SessionReset } from "../protocol/config/session.js";
import type { SessionEntry } from "./types.js";

/** Which `resetByType` bucket a session belongs to. */
export type SessionResetKind = "direct" | "group" | "thread";

/** The effective policy of one session: `none` never expires. */
export interface ResolvedResetPolicy {
  mode: "none" | "daily" | "idle";
  /** Local hour of the daily boundary (daily mode). */
  atHour: number;
  /** Idle window; with `daily` the session expires at whichever comes first. */
  idleMinutes?: number;
}

/** What {@link evaluateSessionReset} decided. */
export interface SessionResetVerdict {
  expired: boolean;
  /** The policy that expired the session (the one that went stale first). */
  reason?: "daily" | "idle";
  /** When a session still fresh expires (ms epoch); absent when the policy never expires it. */
  nextResetAt?: number;
}

/** Daily boundary hour when a policy names none. */
export const DEFAULT_RESET_AT_HOUR = 4;
/** Idle window when `mode: "idle"` names none. */
export const DEFAULT_IDLE_MINUTES = 60;
/** Messages that start a new session when `session.resetTriggers` is unset. */
export const DEFAULT_RESET_TRIGGERS: readonly string[] = ["/new", "/reset"];

const THREAD_MARKERS = [":thread:", ":topic:"];
const GROUP_MARKERS = [":group:", ":channel:"];

/** The reset bucket of a session key: thread and topic keys first, then group and channel keys. */
export function sessionResetKind(sessionKey: string): SessionResetKind {
  const key = sessionKey.toLowerCase();
  if (THREAD_MARKERS.some((marker) => key.includes(marker))) return "thread";
  if (GROUP_MARKERS.some((marker) => key.includes(marker))) return "group";
  return "direct";
}

/** The channel a session key names (`agent:<id>:<channel>:…`), if it names one. */
function keyChannel(sessionKey: string): string | undefined {
  const parts = sessionKey.toLowerCase().split(":");
  return parts[0] === "agent" && parts.length > 3 ? parts[2] : undefined;
}

/**
 * The effective policy for a session: a `resetByChannel` entry replaces everything else; otherwise
 * `resetByType[kind]` over `reset`. A block without `mode` means daily (an active base mode is
 * inherited by a type block); legacy `idleMinutes` alone means idle; no block at all means none.
 */
export function resolveResetPolicy(params: {
  session: SessionConfig | undefined;
  kind: SessionResetKind;
  channel?: string;
}): ResolvedResetPolicy {
  const { session, kind } = params;
  const channelBlock = params.channel ? session?.resetByChannel?.[params.channel] : undefined;
  const base: SessionReset | undefined = channelBlock ?? session?.reset;
  const byType = channelBlock ? undefined : session?.resetByType;
  const typed = byType?.[kind] ?? (kind === "direct" ? byType?.dm : undefined);
  const legacyIdle = channelBlock ? undefined : session?.idleMinutes;
  const baseMode = base ? (base.mode ?? "daily") : undefined;
  let mode: ResolvedResetPolicy["mode"];
  if (typed) mode = typed.mode ?? (baseMode && baseMode !== "none" ? baseMode : "daily");
  else if (baseMode) mode = baseMode;
  else mode = legacyIdle !== undefined ? "idle" : "none";
  const atHour = typed?.atHour ?? base?.atHour ?? DEFAULT_RESET_AT_HOUR;
  const idle = typed?.idleMinutes ?? base?.idleMinutes ?? legacyIdle;
  const idleMinutes = idle ?? (mode === "idle" ? DEFAULT_IDLE_MINUTES : undefined);
  if (mode === "none") return { mode, atHour };
  return { mode, atHour, ...(idleMinutes !== undefined ? { idleMinutes } : {}) };
}

/** Offset of a time zone from UTC at an instant, in ms (wall clock minus UTC). */
function zoneOffset(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(ms);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(
    part("year"),
    part("month") - 1,
    part("day"),
    part("hour"),
    part("minute"),
    part("second"),
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The instant a wall-clock time occurs in a zone (an hour a DST change skips lands just after). */
function wallToInstant(wall: number, timeZone: string): number {
  const first = wall - zoneOffset(wall, timeZone);
  return wall - zoneOffset(first, timeZone);
}

/** The latest daily boundary at or before `now`, and the one after it. */
export function dailyBoundaries(params: { now: number; atHour: number; timeZone: string }): {
  last: number;
  next: number;
} {
  const { now, atHour, timeZone } = params;
  const wallNow = now + zoneOffset(now, timeZone);
  const day = Math.floor(wallNow / 86_400_000) * 86_400_000;
  const at = (dayStart: number) => wallToInstant(dayStart + atHour * 3_600_000, timeZone);
  const today = at(day);
  if (today <= now) return { last: today, next: at(day + 86_400_000) };
  return { last: at(day - 86_400_000), next: today };
}

/** A timestamp usable as a session time: finite, not negative, not in the future. */
function usable(value: unknown, now: number): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= now
    ? value
    : undefined;
}

/**
 * Whether a session has expired under a policy at `now`. Daily counts from when the session id
 * started (`sessionStartedAt`); idle from its last activity (the later of `lastInteractionAt` and
 * `updatedAt`). `timeZone` is the zone of the daily hour (the gateway host's).
 */
export function evaluateSessionReset(params: {
  policy: ResolvedResetPolicy;
  entry: Pick<SessionEntry, "updatedAt" | "sessionStartedAt" | "lastInteractionAt">;
  now: number;
  /** The zone, or how to find it (asked only by a daily policy: reading the host's costs an Intl call). */
  timeZone: string | (() => string);
}): SessionResetVerdict {
  const { policy, entry, now } = params;
  if (policy.mode === "none") return { expired: false };
  const updatedAt = usable(entry.updatedAt, now) ?? 0;
  const startedAt = usable(entry.sessionStartedAt, now) ?? updatedAt;
  const lastActive = Math.max(updatedAt, usable(entry.lastInteractionAt, now) ?? 0, startedAt);
  const daily =
    policy.mode === "daily"
      ? dailyBoundaries({
          now,
          atHour: policy.atHour,
          timeZone: typeof params.timeZone === "function" ? params.timeZone() : params.timeZone,
        })
      : undefined;
  const idleAt =
    policy.idleMinutes !== undefined && policy.idleMinutes > 0
      ? lastActive + policy.idleMinutes * 60_000
      : undefined;
  const staleDaily = daily !== undefined && startedAt < daily.last;
  const staleIdle = idleAt !== undefined && now > idleAt;
  if (staleDaily && staleIdle) {
    return { expired: true, reason: (daily?.last ?? 0) <= (idleAt ?? 0) ? "daily" : "idle" };
  }
  if (staleDaily) return { expired: true, reason: "daily" };
  if (staleIdle) return { expired: true, reason: "idle" };
  const candidates = [daily?.next, idleAt].filter((at): at is number => at !== undefined);
  return candidates.length
    ? { expired: false, nextResetAt: Math.min(...candidates) }
    : {
        expired: false,
      };
}

/** The policy and verdict of one session, from the `session` config and its key. */
export function checkSessionReset(params: {
  session: SessionConfig | undefined;
  sessionKey: string;
  entry: Pick<SessionEntry, "updatedAt" | "sessionStartedAt" | "lastInteractionAt">;
  now: number;
  timeZone: string | (() => string);
}): SessionResetVerdict & { policy: ResolvedResetPolicy } {
  const channel = keyChannel(params.sessionKey);
  const policy = resolveResetPolicy({
    session: params.session,
    kind: sessionResetKind(params.sessionKey),
    ...(channel ? { channel } : {}),
  });
  return { policy, ...evaluateSessionReset({ ...params, policy }) };
}

/**
 * A message that starts with a reset trigger (case-insensitive, alone or followed by whitespace):
 * the rest of the message, trimmed ("" for a bare trigger). Undefined when none matches.
 */
export function matchResetTrigger(
  triggers: readonly string[] | undefined,
  message: string,
): { trigger: string; rest: string } | undefined {
  const list = triggers?.length ? triggers : DEFAULT_RESET_TRIGGERS;
  const text = message.trim();
  const lower = text.toLowerCase();
  for (const trigger of list) {
    const wanted = trigger.trim().toLowerCase();
    if (!wanted || !lower.startsWith(wanted)) continue;
    const after = text.slice(wanted.length);
    if (after === "" || /^\s/.test(after)) return { trigger, rest: after.trim() };
  }
  return undefined;
}

/** The host's time zone (where the daily hour is read), from the runtime's Intl settings. */
export function hostTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
