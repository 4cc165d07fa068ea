// Queue settings for messages that arrive while a session's run is active: mode, debounce, cap and drop
// policy, resolved inline → session → `messages.queue` per channel → `messages.queue` → legacy defaults.
import type { OpenClawConfig } from "../../protocol/config/index.js";

/** How a message arriving during a run is handled. */
export type QueueModeName = "steer" | "followup" | "collect" | "interrupt";

/** Which held messages go when the cap is reached. */
export type QueueDropPolicy = "old" | "new" | "summarize";

/** Effective settings for one session (and channel). */
export interface QueueSettings {
  mode: QueueModeName;
  /** Quiet window (ms) after the last held message before the next turn starts. */
  debounceMs: number;
  /** Max held messages per session (at least 1). */
  cap: number;
  drop: QueueDropPolicy;
}

/** OpenClaw's defaults when `messages.queue` is unset: collect, 1000 ms, cap 20, summarize. */
export const DEFAULT_QUEUE_SETTINGS: Readonly<QueueSettings> = Object.freeze({
  mode: "collect",
  debounceMs: 1000,
  cap: 20,
  drop: "summarize",
});

/** A partial override (a session's stored values or an inline `/queue` directive); raw strings allowed. */
export interface QueueOverride {
  mode?: string;
  debounceMs?: number;
  cap?: number;
  drop?: string;
}

const MODE_ALIASES: Record<string, QueueModeName> = {
  steer: "steer",
  steering: "steer",
  queue: "steer",
  queued: "steer",
  followup: "followup",
  "follow-up": "followup",
  "follow-ups": "followup",
  followups: "followup",
  "steer+backlog": "followup",
  "steer-backlog": "followup",
  steer_backlog: "followup",
  collect: "collect",
  coalesce: "collect",
  interrupt: "interrupt",
  interrupts: "interrupt",
  abort: "interrupt",
};

const DROP_ALIASES: Record<string, QueueDropPolicy> = {
  old: "old",
  oldest: "old",
  new: "new",
  newest: "new",
  summarize: "summarize",
  summary: "summarize",
};

/** Canonical mode for a configured or stored value (aliases and legacy names); undefined if unknown. */
export function normalizeQueueMode(value: unknown): QueueModeName | undefined {
  if (typeof value !== "string") return undefined;
  return MODE_ALIASES[value.trim().toLowerCase()];
}

/** Canonical drop policy (`oldest`, `newest`, `summary` accepted); undefined if unknown. */
export function normalizeQueueDrop(value: unknown): QueueDropPolicy | undefined {
  if (typeof value !== "string") return undefined;
  return DROP_ALIASES[value.trim().toLowerCase()];
}

function debounce(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? Math.max(0, value) : undefined;
}

function cap(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value)
    ? Math.max(1, Math.floor(value))
    : undefined;
}

/** The override stored on a session entry (`queueMode`, `queueDebounceMs`, `queueCap`, `queueDrop`). */
export function queueOverrideFromSession(
  entry: Record<string, unknown> | undefined,
): QueueOverride {
  if (!entry) return {};
  const out: QueueOverride = {};
  if (typeof entry.queueMode === "string") out.mode = entry.queueMode;
  if (typeof entry.queueDebounceMs === "number") out.debounceMs = entry.queueDebounceMs;
  if (typeof entry.queueCap === "number") out.cap = entry.queueCap;
  if (typeof entry.queueDrop === "string") out.drop = entry.queueDrop;
  return out;
}

function byChannel<T>(
  map: Record<string, T> | undefined,
  channel: string | undefined,
): T | undefined {
  if (!map || !channel) return undefined;
  return map[channel] ?? map[channel.toLowerCase()];
}

/** Parameters of {@link resolveQueueSettings}. */
export interface ResolveQueueSettingsParams {
  cfg?: Pick<OpenClawConfig, "messages">;
  /** The inbound channel (`telegram`, `whatsapp`…), for `byChannel` / `debounceMsByChannel`. */
  channel?: string;
  sessionOverride?: QueueOverride;
  /** An inline `/queue` directive on the message itself; wins over everything. */
  inline?: QueueOverride;
}

/**
 * Effective queue settings. Unknown values are skipped (the next source applies), so a bad stored
 * mode never disables queueing.
 */
export function resolveQueueSettings(params: ResolveQueueSettingsParams): QueueSettings {
  const queue = params.cfg?.messages?.queue;
  const sources = [params.inline, params.sessionOverride];
  const first = <T>(values: Array<T | undefined>, fallback: T): T =>
    values.find((value) => value !== undefined) ?? fallback;
  return {
    mode: first(
      [
        ...sources.map((source) => normalizeQueueMode(source?.mode)),
        normalizeQueueMode(byChannel(queue?.byChannel, params.channel)),
        normalizeQueueMode(queue?.mode),
      ],
      DEFAULT_QUEUE_SETTINGS.mode,
    ),
    debounceMs: first(
      [
        ...sources.map((source) => debounce(source?.debounceMs)),
        debounce(byChannel(queue?.debounceMsByChannel, params.channel)),
        debounce(queue?.debounceMs),
      ],
      DEFAULT_QUEUE_SETTINGS.debounceMs,
    ),
    cap: first(
      [...sources.map((source) => cap(source?.cap)), cap(queue?.cap)],
      DEFAULT_QUEUE_SETTINGS.cap,
    ),
    drop: first(
      [
        ...sources.map((source) => normalizeQueueDrop(source?.drop)),
        normalizeQueueDrop(queue?.drop),
      ],
      DEFAULT_QUEUE_SETTINGS.drop,
    ),
  };
}
