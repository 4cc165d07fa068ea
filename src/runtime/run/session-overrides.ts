// The per-session overrides a run honours, read from the session entry: the thinking level (sent
// to the model as its reasoning effort). A stored value that is not a known level is ignored
// (the model's default applies), never sent; `off` sends no reasoning effort.
import type { ThinkingLevel } from "@mariozechner/pi-agent-core";
import type { ThinkingLevel as ReasoningEffort } from "@mariozechner/pi-ai";
import { SESSION_THINKING_LEVELS } from "../../protocol/gateway/session-levels.js";
import type { SessionEntry } from "../../sessions/index.js";

/** The thinking levels a session may set, lowest first. */
export const THINKING_LEVELS: readonly ThinkingLevel[] = SESSION_THINKING_LEVELS;

/** Whether `value` names a thinking level (exact, lowercase). */
export function isThinkingLevel(value: unknown): value is ThinkingLevel {
  return typeof value === "string" && (THINKING_LEVELS as readonly string[]).includes(value);
}

/** The thinking level a session's runs use; undefined when it sets none (or an unknown one). */
export function sessionThinkingLevel(
  entry: Pick<SessionEntry, "thinkingLevel"> | undefined,
): ThinkingLevel | undefined {
  return isThinkingLevel(entry?.thinkingLevel) ? entry.thinkingLevel : undefined;
}

/**
 * The reasoning effort a run sends: the session's level, else the agent's `thinkingDefault`; none
 * for `off`, for neither set, or for `adaptive` (the model decides: no effort is sent).
 */
export function sessionReasoningEffort(
  entry: Pick<SessionEntry, "thinkingLevel"> | undefined,
  agentDefault?: string,
): ReasoningEffort | undefined {
  const level =
    sessionThinkingLevel(entry) ?? (isThinkingLevel(agentDefault) ? agentDefault : undefined);
  return level && level !== "off" ? level : undefined;
}
