// chat.send under its session's queue mode (`/queue`, `sessions.patch {queueMode}`, `messages.queue`
// with `byChannel.webchat`). Each chat.send is its own journaled turn (its runId, its ack, its final
// event), so a message sent while the session runs waits in the session's lane and runs after it
// (followup), except under `interrupt`: the session's running turn is aborted first and the new one
// runs right after it. `steer` and `collect` would answer several chat.send requests with one turn,
// which their one-final-per-runId contract cannot report: over chat.send they behave as `followup`.
import {
  queueOverrideFromSession,
  resolveQueueSettings,
} from "../../runtime/lanes/queue-settings.js";
import type { MethodDeps } from "./method-deps.js";

/** The channel name chat.send turns resolve `messages.queue.byChannel` under. */
export const CHAT_SEND_QUEUE_CHANNEL = "webchat";

/** Applies the session's queue mode before a chat.send turn starts; returns the aborted run ids. */
export function applyChatQueueMode(
  deps: Pick<MethodDeps, "config" | "stores" | "lanes" | "runs" | "logger">,
  target: { agentId: string; sessionKey: string },
): string[] {
  if (!deps.lanes.isBusy(target.sessionKey)) return [];
  const entry = deps.stores.forAgent(target.agentId).get(target.sessionKey);
  const { mode } = resolveQueueSettings({
    cfg: deps.config().config,
    channel: CHAT_SEND_QUEUE_CHANNEL,
    sessionOverride: queueOverrideFromSession(entry as Record<string, unknown> | undefined),
  });
  if (mode !== "interrupt") return [];
  const aborted = deps.runs.abort(target.sessionKey);
  if (aborted.length > 0) {
    deps.logger.info(
      { sessionKey: target.sessionKey, runIds: aborted },
      "chat.send interrupts the running turn (queue mode interrupt)",
    );
  }
  return aborted;
}
