// A turn that ends in error, timeout or abort leaves that in its transcript: its prompt, then an
// assistant message with stopReason "error"/"aborted" and the run's error (OpenClaw/pi's shape), so
// `chat.history`, WebChat and `sessions show` show a failed turn instead of a bare user message.
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { UserMessage } from "@mariozechner/pi-ai";
import type { TranscriptApi } from "../../sessions/index.js";
import type { RunStatus } from "./events.js";
import { appendFailure, appendPrompt } from "./turn-recovery.js";

/** What the run appended so far, tracked from its `message_end` events. */
export interface TurnAppends {
  promptAppended: boolean;
  last?: AgentMessage;
}

/** Inputs of {@link markFailedTurn}. */
export interface FailedTurnInput {
  transcript: TranscriptApi;
  runId: string;
  /** The run's prompt when it was to be appended (absent for a resumed turn). */
  prompt?: UserMessage;
  appends: TurnAppends;
  status: RunStatus;
  error?: string;
  now: number;
}

function endsWith(
  message: AgentMessage | undefined,
  stop: "error" | "aborted",
  error: string | undefined,
): boolean {
  if (message?.role !== "assistant" || message.stopReason !== stop) return false;
  return stop === "aborted" || error === undefined || message.errorMessage === error;
}

/** Appends what a failed turn lacks: its prompt (if the run never got to it) and the failure reply. */
export function markFailedTurn(input: FailedTurnInput): void {
  const { transcript, appends, status } = input;
  if (status === "ok") return;
  const aborted = status === "aborted";
  // An abort already recorded by the model call needs nothing more; a failure whose last reply
  // carries a different (less precise) message gets the run's error as the turn's last word.
  if (endsWith(appends.last, aborted ? "aborted" : "error", aborted ? undefined : input.error))
    return;
  if (input.prompt && !appends.promptAppended) {
    appendPrompt(transcript, { message: input.prompt, runId: input.runId });
  }
  const error = input.error ?? (aborted ? "run aborted" : "run failed");
  appendFailure(transcript, { error, runId: input.runId, now: input.now, aborted });
}
