// The values a session's overrides take (`sessions.patch`, the chat commands, the Control UI):
// one list each, so the schema refuses what a run would ignore and every surface offers the same.
// Plain values, no TypeBox: the Control UI bundles this file.

/** Thinking levels a session may set, lowest first (`thinkingLevel`, `/think`). */
export const SESSION_THINKING_LEVELS = [
  "off",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
] as const;
/** Tool-call message levels (`verboseLevel`, `/verbose`). */
export const SESSION_VERBOSE_LEVELS = ["off", "on", "full"] as const;
/** Reasoning display levels (`reasoningLevel`, `/reasoning`). */
export const SESSION_REASONING_LEVELS = ["off", "on", "stream"] as const;
/** Elevated levels (`elevatedLevel`, `/elevated`; OpenClaw's). */
export const SESSION_ELEVATED_LEVELS = ["off", "on", "ask", "full"] as const;
/** Queue modes (`queueMode`, `/queue`). */
export const SESSION_QUEUE_MODES = ["steer", "followup", "collect", "interrupt"] as const;
