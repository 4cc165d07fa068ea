// A chat command sent with chat.send (`/status`, `/new`, …): answered by the chat command service
// without a run, the way a WebChat client shows any reply. The ack is the usual `{runId, status:
// "started"}` (at once; the command runs in the background); after it one `chat` event `state:
// "final"` carries the reply as an assistant message (with `command: <name>`), under the request's
// runId and session key. The reply is not written to the transcript. A retry of the same
// idempotencyKey gets `{runId, status: "ok", command}` without running the command again.
import type { MethodResult } from "./method.js";
import { ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";

/** What answering a chat.send command needs. */
export type ChatCommandDeps = Pick<
  MethodDeps,
  "dedupe" | "config" | "channels" | "broadcast" | "now" | "logger"
>;

/** Answers `message` when it is a chat command; undefined when it is text for the model. */
export async function answerChatCommand(params: {
  deps: ChatCommandDeps;
  message: string;
  dedupeKey: string;
  runId: string;
  target: { agentId: string; sessionKey: string };
  clientId: string;
  /** The connection's scopes (a command may need more than chat.send's write). */
  scopes: readonly string[];
}): Promise<MethodResult | undefined> {
  const { deps, runId, target } = params;
  // Cheap first: only a message starting with `/` loads the command service.
  if (!params.message.trimStart().startsWith("/")) return undefined;
  const commands = await deps.channels.commands();
  const config = deps.config().config;
  if (!commands.recognizes({ text: params.message, config })) return undefined;
  deps.dedupe.begin(params.dedupeKey, { runId });
  const event = (state: "final" | "error", extra: Record<string, unknown>) =>
    deps.broadcast("chat", {
      runId,
      sessionKey: target.sessionKey,
      agentId: target.agentId,
      seq: 1,
      state,
      ...extra,
    });
  // Answered in the background (a /compact waits for the model): the ack goes out at once.
  commands
    .handle({
      text: params.message,
      config,
      agentId: target.agentId,
      sessionKey: target.sessionKey,
      channel: "webchat",
      chatType: "operator",
      sender: { id: params.clientId },
      authorizers: [],
      scopes: params.scopes,
    })
    .then((answer) => {
      // Only a config reload between the two checks turns a command into text: say so.
      const text = answer?.text ?? "Commands were turned off meanwhile; send the message again.";
      const command = answer?.name ?? "none";
      deps.dedupe.finish(params.dedupeKey, { runId, status: "ok", command });
      const message = {
        role: "assistant",
        content: [{ type: "text", text }],
        timestamp: deps.now(),
      };
      // After the ack: a client sees its runId before the reply that carries it; what the command
      // does after its reply (/restart) comes after the reply is broadcast.
      setImmediate(() => {
        event("final", { command, message });
        answer?.afterReply?.();
      });
    })
    .catch((err: unknown) => {
      deps.dedupe.finish(params.dedupeKey, { runId, status: "error", error: String(err) });
      deps.logger.error({ runId, error: String(err) }, "chat command failed");
      setImmediate(() => event("error", { errorMessage: String(err) }));
    });
  return ok({ runId, status: "started" });
}
