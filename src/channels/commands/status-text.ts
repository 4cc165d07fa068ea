// The `/status` reply: the session's agent, model and auth profile, ids, context and token counts,
// cost, budget, compactions, queue mode, elevated level, thinking / verbose / reasoning levels, the
// usage footer and the current time (the prompt carries no clock), from the session entry and the
// config current now.
import type {
  ResolvedResetPolicy,
  SessionEntry,
  SessionResetVerdict,
} from "../../sessions/index.js";

/** What `/status` shows, gathered by its handler. */
export interface StatusFacts {
  agentId: string;
  sessionKey: string;
  entry: Readonly<SessionEntry> | undefined;
  /** The model the next turn tries first (`provider/model`), when one is configured. */
  configuredModel?: string;
  contextWindow?: number;
  queueMode: string;
  /** The display settings in effect (the session's, else the configured defaults). */
  display?: { usage: string; verbose: string; reasoning: string };
  /** The elevated level in force (`/elevated`; "off" when elevated mode is not available). */
  elevated?: string;
  /** The session's lifecycle policy and whether (or when) it expires. */
  reset?: SessionResetVerdict & { policy: ResolvedResetPolicy };
  /** The agent's budget line (`formatBudgetLine`), when it has a budget. */
  budget?: string;
  now: number;
}

function count(value: number | undefined): string {
  if (value === undefined) return "?";
  return value >= 10_000 ? `${(value / 1000).toFixed(1)}k` : String(value);
}

function costText(value: number | undefined): string {
  if (!value) return "$0.00";
  return value >= 0.01 ? `$${value.toFixed(2)}` : `$${value.toPrecision(2)}`;
}

function modelLine(facts: StatusFacts): string {
  const { entry } = facts;
  const override = entry?.modelOverride
    ? `${entry.providerOverride ? `${entry.providerOverride}/` : ""}${entry.modelOverride}`
    : undefined;
  const last =
    entry?.model !== undefined
      ? `${entry.modelProvider ? `${entry.modelProvider}/` : ""}${entry.model}`
      : undefined;
  const model = override ?? facts.configuredModel ?? last ?? "not configured";
  const profile = entry?.authProfileOverride ? ` · auth profile ${entry.authProfileOverride}` : "";
  const lastNote = last && last !== model ? ` (last turn: ${last})` : "";
  return `Model: ${model}${profile}${lastNote}`;
}

function contextLine(facts: StatusFacts): string {
  const used = facts.entry?.contextTokens ?? facts.entry?.totalTokens;
  const window = facts.contextWindow;
  if (used === undefined) {
    return window
      ? `Context: no turn yet · window ${count(window)} tokens`
      : "Context: no turn yet";
  }
  if (!window) return `Context: ${count(used)} tokens`;
  const percent = Math.round((used / window) * 100);
  return `Context: ${count(used)} / ${count(window)} tokens (${percent}%)`;
}

function resetLine(reset: NonNullable<StatusFacts["reset"]>): string {
  const { policy } = reset;
  if (policy.mode === "none") return "Resets: never (no session.reset policy)";
  const hour = `${String(policy.atHour).padStart(2, "0")}:00`;
  const idle = policy.idleMinutes ? `after ${policy.idleMinutes} min idle` : undefined;
  const rule =
    policy.mode === "daily" ? [`daily at ${hour}`, idle].filter(Boolean).join(" or ") : idle;
  if (reset.expired)
    return `Resets: ${rule}; expired (${reset.reason}), the next message starts a new session`;
  const when = reset.nextResetAt ? `, next ${new Date(reset.nextResetAt).toISOString()}` : "";
  return `Resets: ${rule}${when}`;
}

/** The `/status` text. */
export function formatStatus(facts: StatusFacts): string {
  const { entry } = facts;
  const lines = [
    `Agent: ${facts.agentId}`,
    modelLine(facts),
    `Session: ${facts.sessionKey}`,
    `Session id: ${entry?.sessionId ?? "none yet (starts with the next message)"}`,
    contextLine(facts),
    `Tokens: ${count(entry?.inputTokens)} in / ${count(entry?.outputTokens)} out`,
    `Cost: ${costText(entry?.estimatedCostUsd)} this session`,
    `Compactions: ${entry?.compactionCount ?? 0}`,
    `Queue: ${facts.queueMode}`,
    ...(facts.elevated !== undefined ? [`Elevated: ${facts.elevated}`] : []),
    [
      `Thinking: ${entry?.thinkingLevel ?? "default"}`,
      `Verbose: ${facts.display?.verbose ?? entry?.verboseLevel ?? "off"}`,
      `Reasoning: ${facts.display?.reasoning ?? entry?.reasoningLevel ?? "off"}`,
      `Usage: ${facts.display?.usage ?? entry?.responseUsage ?? "off"}`,
    ].join(" · "),
    `Time: ${new Date(facts.now).toISOString()}`,
  ];
  if (facts.budget) lines.splice(lines.length - 1, 0, facts.budget);
  if (facts.reset) lines.splice(lines.length - 1, 0, resetLine(facts.reset));
  return lines.join("\n");
}
