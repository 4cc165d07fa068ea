// Elevated mode (OpenClaw's `/elevated on|off|ask|full`): per session, it lets a sandboxed agent's
// `exec` run on the gateway host. "on" and "ask" keep exec approvals; "full" also skips them.
// Gates, all of which must pass: `tools.elevated.enabled: true`, the agent's
// `agents.list[].tools.elevated.enabled` not false, and for a chat sender `tools.elevated.allowFrom.
// <channel>` (or "*"; Discord falls back to `channels.discord.dm.allowFrom`) naming them, plus the
// agent's own `allowFrom` when it sets one. A session's level is its `elevatedLevel` (set by
// `/elevated` or `sessions.patch`), else `agents.defaults.elevatedDefault`, else off.
import type { ResolvedConfig } from "../../config/resolve.js";
import { findAgent } from "../../config/resolve.js";
import type { ElevatedConfig } from "../../protocol/config/index.js";

/** OpenClaw's elevated levels. */
export const ELEVATED_LEVELS = ["off", "on", "ask", "full"] as const;
/** Static type of {@link ELEVATED_LEVELS}. */
export type ElevatedLevel = (typeof ELEVATED_LEVELS)[number];

/** True for one of {@link ELEVATED_LEVELS}. */
export function isElevatedLevel(value: string): value is ElevatedLevel {
  return (ELEVATED_LEVELS as readonly string[]).includes(value);
}

/** Whether elevated mode is available to `agentId` at all, or the key that keeps it off. */
export function elevatedAvailability(
  cfg: ResolvedConfig,
  agentId: string,
): { ok: true } | { ok: false; reason: string } {
  const global = cfg.config.tools?.elevated as ElevatedConfig | undefined;
  if (global?.enabled !== true)
    return { ok: false, reason: "elevated mode is off (tools.elevated.enabled is not true)" };
  const own = findAgent(cfg, agentId)?.entry.tools?.elevated as ElevatedConfig | undefined;
  if (own?.enabled === false)
    return {
      ok: false,
      reason: `elevated mode is off for agent "${agentId}" (its tools.elevated.enabled is false)`,
    };
  return { ok: true };
}

/** The session's elevated level in force now: its own, else the default, "off" when unavailable. */
export function effectiveElevatedLevel(params: {
  cfg: ResolvedConfig;
  agentId: string;
  sessionLevel: unknown;
}): ElevatedLevel {
  if (!elevatedAvailability(params.cfg, params.agentId).ok) return "off";
  const raw = params.sessionLevel ?? params.cfg.defaults.elevatedDefault;
  return typeof raw === "string" && isElevatedLevel(raw) ? raw : "off";
}

/** The allowFrom entries of `channel` in one elevated config (the channel's list, else "*"). */
export function elevatedAllowList(
  elevated: ElevatedConfig | undefined,
  channel: string,
): ReadonlyArray<string | number> | undefined {
  const lists = elevated?.allowFrom as Record<string, unknown> | undefined;
  const list = lists?.[channel] ?? lists?.["*"];
  return Array.isArray(list) ? (list as Array<string | number>) : undefined;
}
