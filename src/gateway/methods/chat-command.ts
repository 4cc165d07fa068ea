// A chat command sent with chat.send (`/status`, `/new`, …): answered by the chat command service
// without a run, the way a WebChat client shows any reply. The ack is the usual `{runId, status:
// "started"}`; right after it one `chat` event `state: "final"` carries the reply as an assistant
// message (with `command: <name>`), under the request's runId and session key. The reply is not
// written to the transcript. A retry of the same idempotencyKey gets `{runId, status: "ok",
// command}` without running the command again.
import type { MethodResult } from "./method.js";
import { ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";

/** What answering a chat.send command needs. */
export type ChatCommandDeps = Pick<
  MethodDeps,
  "dedupe" | "config" | "channels" | "broadcast" | "now"
>;

/** Answers `message` when it is a chat command; undefined when it is text for the model. */
export async function answerChatCommand(params: {
  deps: ChatCommandDeps;
  message: string;
  dedupeKey: string;
  runId: string;
  target: { agentId: string; sessionKey: string };
  clientId: string;
}): Promise<MethodResult | undefined> {
  const { deps, runId, target } = params;
  // Cheap first: only a message starting with `/` loads the command service.
  if (!params.message.trimStart().startsWith("/")) return undefined;
  const commands = await deps.channels.commands();
  const config = deps.config().config;
  if (!commands.recognizes({ text: params.message, config })) return undefined;
  deps.dedupe.begin(params.dedupeKey, { runId });
  const answer = await commands.handle({
    text: params.message,
    config,
    agentId: target.agentId,
    sessionKey: target.sessionKey,
    channel: "webchat",
    chatType: "operator",
    sender: { id: params.clientId },
    authorizers: [],
  });
  if (!answer) {
    deps.dedupe.delete(params.dedupeKey);
    return undefined;
  }
  deps.dedupe.finish(params.dedupeKey, { runId, status: "ok", command: answer.name });
  // After the ack: a client sees its runId before the reply that carries it.
  setImmediate(() =>
    deps.broadcast("chat", {
      runId,
      sessionKey: target.sessionKey,
      agentId: target.agentId,
      seq: 1,
      state: "final",
      command: answer.name,
      message: {
        role: "assistant",
        content: [{ type: "text", text: answer.text }],
        timestamp: deps.now(),
      },
    }),
  );
  return ok({ runId, status: "started" });
}
