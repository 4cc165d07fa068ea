// WebChat-style methods: chat.send (ack with the runId, then `chat` events; journaled before the ack
// like `agent`), chat.history (the session's current branch as messages) and chat.abort.
import type { ChatSendParams } from "../../protocol/gateway/index.js";
import { currentBranch, isMessageEntry } from "../../sessions/index.js";
import { type MethodCall, type MethodHandler, ok } from "../context.js";
import { answerDuplicate, turnKey } from "../idempotency.js";
import { startJournaledTurn } from "../runs/turn-journal-run.js";
import { invalid, resolveTarget } from "./shared.js";

async function send(call: MethodCall<ChatSendParams>) {
  const { core, params } = call;
  if (params.message.trim() === "") return invalid("invalid chat.send params: message is empty");
  const dedupeKey = turnKey("chat", params.idempotencyKey);
  const duplicate = answerDuplicate(core.dedupe, dedupeKey);
  if (duplicate) return duplicate;
  const target = resolveTarget(core.live.resolved, { sessionKey: params.sessionKey });
  if ("error" in target) return target.error;
  const runId = params.idempotencyKey;
  // timeoutMs 0 = no timeout for this call; absent = the agent's configured timeout.
  const { timeoutMs } = params;
  const timeoutSeconds =
    timeoutMs === undefined
      ? undefined
      : timeoutMs === 0
        ? 0
        : Math.max(1, Math.ceil(timeoutMs / 1000));
  const started = await startJournaledTurn(core, {
    key: dedupeKey,
    info: { runId },
    turn: {
      kind: "chat",
      runId,
      agentId: target.agentId,
      sessionKey: target.sessionKey,
      message: params.message,
      ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
      acceptedAt: core.now(),
    },
  });
  if (!started.ok) return started.error;
  started.turn.settled.catch((err: unknown) =>
    core.logger.error("chat run failed", { runId, error: String(err) }),
  );
  return ok({ runId, status: "started" });
}

function history(call: MethodCall<{ sessionKey: string; limit?: number; maxChars?: number }>) {
  const { core, params } = call;
  const target = resolveTarget(core.live.resolved, { sessionKey: params.sessionKey });
  if ("error" in target) return target.error;
  const store = core.runtime.stores.forAgent(target.agentId);
  const entry = store.get(target.sessionKey);
  const read = entry ? store.readTranscript(target.sessionKey) : undefined;
  const branch = read ? currentBranch(read.entries) : [];
  const limit = params.limit ?? 200;
  let messages = branch
    .filter(isMessageEntry)
    .map((item) => item.message)
    .slice(-limit);
  if (params.maxChars !== undefined) {
    const max = params.maxChars;
    while (messages.length > 1 && JSON.stringify(messages).length > max)
      messages = messages.slice(1);
  }
  return ok({
    sessionKey: target.sessionKey,
    ...(entry ? { sessionId: entry.sessionId } : {}),
    messages,
    ...(entry?.thinkingLevel ? { thinkingLevel: entry.thinkingLevel } : {}),
  });
}

function abort(call: MethodCall<{ sessionKey: string; runId?: string }>) {
  const { core, params } = call;
  const target = resolveTarget(core.live.resolved, { sessionKey: params.sessionKey });
  if ("error" in target) return target.error;
  const runIds = core.runs.abort(target.sessionKey, params.runId);
  return ok({ ok: true, aborted: runIds.length > 0, runIds });
}

/** The chat method group. */
export const chatMethods: Record<string, MethodHandler> = {
  "chat.send": send,
  "chat.history": history,
  "chat.abort": abort,
};
