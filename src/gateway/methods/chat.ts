// WebChat-style methods: chat.send (ack with the runId, then `chat` events; journaled before the ack
// like `agent`; a chat command is answered without a run, chat-command.ts), chat.history (the
// session's current branch as messages) and chat.abort.
import { currentBranch, isMessageEntry } from "../../sessions/index.js";
import { answerDuplicate, turnKey } from "../idempotency.js";
import { parseAttachments } from "./attachments.js";
import { answerChatCommand } from "./chat-command.js";
import { applyChatQueueMode } from "./chat-queue-mode.js";
import { type CallOf, defineMethod, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";
import { invalid, resolveTarget } from "./shared.js";

async function send(
  call: CallOf<"chat.send">,
  deps: Pick<
    MethodDeps,
    | "dedupe"
    | "config"
    | "startTurn"
    | "now"
    | "logger"
    | "channels"
    | "broadcast"
    | "stores"
    | "lanes"
    | "runs"
  >,
) {
  const { params } = call;
  const attached = parseAttachments(params.attachments);
  if (!attached.ok) return invalid(`invalid chat.send params: ${attached.message}`);
  const { images } = attached;
  if (params.message.trim() === "" && images.length === 0)
    return invalid("invalid chat.send params: message is empty");
  const dedupeKey = turnKey("chat", params.idempotencyKey);
  const duplicate = answerDuplicate(deps.dedupe, dedupeKey);
  if (duplicate) return duplicate;
  const target = resolveTarget(deps.config(), { sessionKey: params.sessionKey });
  if ("error" in target) return target.error;
  const runId = params.idempotencyKey;
  const command = await answerChatCommand({
    deps,
    message: params.message,
    dedupeKey,
    runId,
    target,
    clientId: call.client.clientId,
    scopes: call.client.scopes,
  });
  if (command) return command;
  applyChatQueueMode(deps, target);
  // timeoutMs 0 = no timeout for this call; absent = the agent's configured timeout.
  const { timeoutMs } = params;
  const timeoutSeconds =
    timeoutMs === undefined
      ? undefined
      : timeoutMs === 0
        ? 0
        : Math.max(1, Math.ceil(timeoutMs / 1000));
  const started = await deps.startTurn({
    key: dedupeKey,
    info: { runId },
    turn: {
      kind: "chat",
      runId,
      agentId: target.agentId,
      sessionKey: target.sessionKey,
      message: params.message,
      ...(images.length ? { images } : {}),
      ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
      acceptedAt: deps.now(),
    },
  });
  if (!started.ok) return started.error;
  started.turn.settled.catch((err: unknown) =>
    deps.logger.error({ runId, error: String(err) }, "chat run failed"),
  );
  return ok({ runId, status: "started" });
}

async function history(call: CallOf<"chat.history">, deps: Pick<MethodDeps, "config" | "stores">) {
  const { params } = call;
  const target = resolveTarget(deps.config(), { sessionKey: params.sessionKey });
  if ("error" in target) return target.error;
  const store = deps.stores.forAgent(target.agentId);
  const entry = store.get(target.sessionKey);
  const read = entry ? await store.readTranscriptAsync(target.sessionKey) : undefined;
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

function abort(call: CallOf<"chat.abort">, deps: Pick<MethodDeps, "config" | "runs">) {
  const { params } = call;
  const target = resolveTarget(deps.config(), { sessionKey: params.sessionKey });
  if ("error" in target) return target.error;
  const runIds = deps.runs.abort(target.sessionKey, params.runId);
  return ok({ ok: true, aborted: runIds.length > 0, runIds });
}

/** The chat method group. */
export const chatMethods = [
  defineMethod({
    name: "chat.send",
    scope: "operator.write",
    uses: [
      "dedupe",
      "config",
      "startTurn",
      "now",
      "logger",
      "channels",
      "broadcast",
      "stores",
      "lanes",
      "runs",
    ],
    handler: send,
  }),
  defineMethod({
    name: "chat.history",
    scope: "operator.read",
    uses: ["config", "stores"],
    handler: history,
  }),
  defineMethod({
    name: "chat.abort",
    scope: "operator.write",
    uses: ["config", "runs"],
    handler: abort,
  }),
];
