// The session tools' view of the gateway: status, list and history read the session stores;
// send and spawn start runs in other sessions through the same lanes (never the caller's own).
import { randomUUID } from "node:crypto";
import { buildAgentMainSessionKey, normalizeAgentId } from "../../routing/index.js";
import { currentBranch, isMessageEntry, messageText } from "../../sessions/index.js";
import type {
  SessionHistoryMessage,
  SessionSummary,
  SessionsSendResult,
  SessionsSpawnResult,
  SessionToolsHost,
} from "../tools/index.js";
import type { AgentRuntimeDeps, RunResult } from "./run-agent.js";
import { runAgent } from "./run-agent.js";

function replyText(result: RunResult): string {
  return result.payloads.map((payload) => payload.text).join("\n");
}

async function runElsewhere(
  deps: AgentRuntimeDeps,
  input: {
    agentId: string;
    sessionKey: string;
    message: string;
    timeoutSeconds?: number;
    signal?: AbortSignal;
  },
): Promise<RunResult> {
  const handle = runAgent(deps, {
    agentId: input.agentId,
    sessionKey: input.sessionKey,
    message: input.message,
    ...(input.timeoutSeconds ? { timeoutSeconds: input.timeoutSeconds } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return handle.result;
}

/** A SessionToolsHost for one running session. */
export function createSessionToolsHost(params: {
  deps: AgentRuntimeDeps;
  agentId: string;
  sessionKey: string;
}): SessionToolsHost {
  const { deps, agentId, sessionKey } = params;
  return {
    status() {
      const entry = deps.stores.forAgent(agentId).get(sessionKey);
      return {
        agentId,
        sessionKey,
        ...(entry?.sessionId ? { sessionId: entry.sessionId } : {}),
        ...(entry?.modelProvider ? { provider: entry.modelProvider } : {}),
        ...(entry?.model ? { model: entry.model } : {}),
        usage: {
          input: entry?.inputTokens ?? 0,
          output: entry?.outputTokens ?? 0,
          cacheRead: 0,
          cacheWrite: 0,
          total: entry?.totalTokens ?? 0,
        },
        ...(entry?.updatedAt ? { updatedAt: entry.updatedAt } : {}),
      };
    },
    list(input) {
      const target = normalizeAgentId(input.agentId ?? agentId);
      const rows = deps.stores.forAgent(target).list({
        limit: input.limit,
        ...(input.activeMinutes ? { activeMinutes: input.activeMinutes } : {}),
      });
      return rows.map(
        ({ key, entry }): SessionSummary => ({
          sessionKey: key,
          agentId: target,
          sessionId: entry.sessionId,
          updatedAt: entry.updatedAt,
          ...(entry.chatType ? { chatType: entry.chatType } : {}),
          ...(entry.lastChannel ? { channel: entry.lastChannel } : {}),
          ...(entry.model ? { model: entry.model } : {}),
          ...(entry.totalTokens !== undefined ? { totalTokens: entry.totalTokens } : {}),
        }),
      );
    },
    history(input) {
      const read = deps.stores
        .forAgent(normalizeAgentId(input.agentId))
        .readTranscript(input.sessionKey);
      const messages = (read ? currentBranch(read.entries) : []).filter(isMessageEntry);
      const rows: SessionHistoryMessage[] = [];
      for (const entry of messages) {
        const role = entry.message.role;
        if (role !== "user" && role !== "assistant" && role !== "toolResult") continue;
        if (role === "toolResult" && !input.includeTools) continue;
        rows.push({
          role,
          text: messageText(entry.message),
          ...(typeof entry.message.timestamp === "number"
            ? { timestamp: entry.message.timestamp }
            : {}),
        });
      }
      return rows.slice(-input.limit);
    },
    async send(input): Promise<SessionsSendResult> {
      if (input.sessionKey === sessionKey) {
        return { status: "error", error: "a session cannot send to itself" };
      }
      const result = await runElsewhere(deps, input);
      if (result.status === "timeout") return { status: "timeout", runId: result.runId };
      if (result.status !== "ok")
        return { status: "error", runId: result.runId, error: result.error ?? result.status };
      return { status: "ok", runId: result.runId, reply: replyText(result) };
    },
    async spawn(input): Promise<SessionsSpawnResult> {
      const target = normalizeAgentId(input.agentId);
      const childSessionKey = `${buildAgentMainSessionKey({ agentId: target }).replace(/:[^:]*$/, "")}:subagent:${randomUUID()}`;
      const result = await runElsewhere(deps, {
        agentId: target,
        sessionKey: childSessionKey,
        message: input.task,
        ...(input.timeoutSeconds ? { timeoutSeconds: input.timeoutSeconds } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      if (result.status === "timeout")
        return { status: "timeout", childSessionKey, runId: result.runId };
      if (result.status !== "ok") {
        return {
          status: "error",
          childSessionKey,
          runId: result.runId,
          error: result.error ?? result.status,
        };
      }
      return { status: "ok", childSessionKey, runId: result.runId, reply: replyText(result) };
    },
  };
}
