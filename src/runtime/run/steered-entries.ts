// A message steered into a run on a worker carries a steer id; its transcript entry records it
// (`steer: {runId, id}`, an extra field on the `message` entry, ignored by other readers), so a
// redelivered turn knows which steering its earlier delivery already applied: never twice.
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import {
  isMessageEntry,
  type TranscriptApi,
  type TranscriptEntry,
  type TranscriptMessage,
} from "../../sessions/index.js";
import { steerIdOf } from "../lanes/steering.js";

/** Appends a message of the running loop; one built from a steered message keeps its steer id.
 *  `original` is the loop's message (what a plugin's persist hook rewrote is `message`). */
export function appendLoopMessage(
  transcript: TranscriptApi,
  params: { message: AgentMessage; original: AgentMessage; runId: string },
): void {
  const message = params.message as unknown as TranscriptMessage;
  const steerId = steerIdOf(params.original);
  if (steerId === undefined) transcript.appendMessage(message);
  else transcript.append({ type: "message", message, steer: { runId: params.runId, id: steerId } });
}

/** The steer ids of run `runId` recorded in `entries`, in order. */
export function steeredIds(entries: readonly TranscriptEntry[], runId: string): string[] {
  const ids: string[] = [];
  for (const entry of entries) {
    if (!isMessageEntry(entry)) continue;
    const steer = entry.steer as { runId?: unknown; id?: unknown } | undefined;
    if (steer?.runId === runId && typeof steer.id === "string") ids.push(steer.id);
  }
  return ids;
}
