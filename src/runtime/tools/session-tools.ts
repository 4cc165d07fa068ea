// `session_status`, `sessions_list`, `sessions_history`: read-only views of sessions through the host,
// with cross-agent reads gated by `tools.agentToAgent`.
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { Type } from "typebox";
import type { ResolvedConfig } from "../../config/resolve.js";
import { normalizeAgentId, resolveAgentIdFromSessionKey } from "../../routing/index.js";
import { checkAgentToAgent } from "./agent-access.js";
import type {
  SessionHistoryMessage,
  SessionStatus,
  SessionSummary,
  SessionToolsHost,
} from "./session-tools-contract.js";
import { jsonResult, ToolError, textResult } from "./types.js";

/** What the session tools need. */
export interface SessionToolContext {
  cfg: ResolvedConfig;
  agentId: string;
  host: SessionToolsHost;
  now: () => number;
}

const MESSAGE_CHARS = 4000;
const HISTORY_CHARS = 40_000;

function formatTime(at: number, timeZone: string | undefined): string {
  const options: Intl.DateTimeFormatOptions = {
    weekday: "short",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
    timeZoneName: "short",
  };
  try {
    return new Intl.DateTimeFormat("en-US", { ...options, timeZone }).format(at);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return `${new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" }).format(at)} (unknown time zone "${timeZone}")`;
  }
}

function statusText(status: SessionStatus, at: { now: number; timeZone?: string }): string {
  const { now, timeZone } = at;
  const u = status.usage;
  const cost = u.cost !== undefined ? `, cost $${u.cost.toFixed(4)}` : "";
  const model = [status.provider, status.model].filter(Boolean).join("/") || "(unknown)";
  const lines = [
    `Time: ${formatTime(now, timeZone)} (${new Date(now).toISOString()})`,
    `Agent: ${status.agentId}`,
    `Session: ${status.sessionKey}${status.sessionId ? ` (id ${status.sessionId})` : ""}`,
    `Model: ${model}${status.thinkingLevel ? ` · thinking ${status.thinkingLevel}` : ""}`,
    `Tokens: ${u.input} in / ${u.output} out / ${u.cacheRead} cache read / ${u.cacheWrite} cache write (${u.total} total)${cost}`,
  ];
  if (status.contextWindow) lines.push(`Context window: ${status.contextWindow} tokens`);
  if (status.queueDepth) lines.push(`Queued messages: ${status.queueDepth}`);
  return lines.join("\n");
}

/** Throws a refusal unless the agent may reach `targetAgentId`'s sessions. */
export function assertAgentAccess(
  ctx: SessionToolContext,
  target: { agentId: string; tool: string },
): void {
  const { tool } = target;
  const decision = checkAgentToAgent({ cfg: ctx.cfg, from: ctx.agentId, to: target.agentId });
  if (!decision.allowed) throw new ToolError(`${tool} refused: ${decision.reason}`);
}

/** Creates `session_status`: the time, the model and the usage of this session. */
export function createSessionStatusTool(ctx: SessionToolContext): AgentTool {
  return {
    name: "session_status",
    label: "Session status",
    description: "Show the current date and time, this session's key, model and token usage.",
    parameters: Type.Object({}),
    async execute() {
      const status = await ctx.host.status();
      const now = ctx.now();
      const text = statusText(status, { now, timeZone: ctx.cfg.defaults.userTimezone });
      return textResult(text, { ...status, now: new Date(now).toISOString() });
    },
  };
}

const ListParams = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 200, description: "Max sessions (default 20)." }),
  ),
  activeMinutes: Type.Optional(
    Type.Number({ minimum: 1, description: "Only sessions active in the last N minutes." }),
  ),
  agentId: Type.Optional(
    Type.String({ description: "List another agent's sessions (needs agent-to-agent access)." }),
  ),
});

/** Creates `sessions_list`: recent sessions (other agents' only with agent-to-agent access). */
export function createSessionsListTool(ctx: SessionToolContext): AgentTool<typeof ListParams> {
  return {
    name: "sessions_list",
    label: "Sessions list",
    description:
      "List recent sessions, newest first (key, agent, channel, last update). Other agents' sessions need agent-to-agent access.",
    parameters: ListParams,
    async execute(_id, args) {
      const agentId = args.agentId ? normalizeAgentId(args.agentId) : undefined;
      if (agentId) assertAgentAccess(ctx, { agentId, tool: "sessions_list" });
      const found = await ctx.host.list({
        limit: args.limit ?? 20,
        ...(agentId ? { agentId } : {}),
        ...(args.activeMinutes ? { activeMinutes: args.activeMinutes } : {}),
      });
      const sessions: SessionSummary[] = found.filter(
        (s) => checkAgentToAgent({ cfg: ctx.cfg, from: ctx.agentId, to: s.agentId }).allowed,
      );
      return jsonResult({ count: sessions.length, sessions });
    },
  };
}

const HistoryParams = Type.Object({
  sessionKey: Type.String({ description: "Session key, e.g. agent:main:main." }),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 200, description: "Newest N messages (default 20)." }),
  ),
  includeTools: Type.Optional(
    Type.Boolean({ description: "Include tool results (default false)." }),
  ),
});

function capHistory(messages: SessionHistoryMessage[]): {
  messages: SessionHistoryMessage[];
  omitted: number;
} {
  const capped = messages.map((m) =>
    m.text.length > MESSAGE_CHARS ? { ...m, text: `${m.text.slice(0, MESSAGE_CHARS)} [… cut]` } : m,
  );
  let total = 0;
  let first = capped.length;
  while (first > 0 && total + capped[first - 1].text.length <= HISTORY_CHARS) {
    first--;
    total += capped[first].text.length;
  }
  return { messages: capped.slice(first), omitted: first };
}

/** Creates `sessions_history`: the newest messages of a session (another agent's with agent-to-agent access). */
export function createSessionsHistoryTool(
  ctx: SessionToolContext,
): AgentTool<typeof HistoryParams> {
  return {
    name: "sessions_history",
    label: "Session history",
    description:
      "Read the newest messages of a session by key (tool results only with includeTools).",
    parameters: HistoryParams,
    async execute(_id, args) {
      const sessionKey = args.sessionKey.trim();
      if (sessionKey === "") throw new ToolError("sessionKey must not be empty.");
      const agentId = resolveAgentIdFromSessionKey(sessionKey, ctx.agentId);
      assertAgentAccess(ctx, { agentId, tool: "sessions_history" });
      const all = await ctx.host.history({
        sessionKey,
        agentId,
        limit: args.limit ?? 20,
        includeTools: args.includeTools ?? false,
      });
      const { messages, omitted } = capHistory(all);
      return jsonResult({ sessionKey, agentId, omittedOlder: omitted, messages });
    },
  };
}
