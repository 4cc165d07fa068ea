// Where a run stands in its session's transcript, for a turn accepted before a crash. Every run's
// prompt entry carries its `runId` (an extra field on the `message` entry, ignored by other readers),
// so a resumed turn can tell whether its prompt already landed (never append it twice), whether its
// reply already landed (answer from the transcript, no second model call), or where to continue.
import type { AssistantMessage, UserMessage } from "@mariozechner/pi-ai";
import {
  currentBranch,
  isMessageEntry,
  type MessageEntry,
  type TranscriptApi,
  type TranscriptEntry,
  type TranscriptMessage,
} from "../../sessions/index.js";
import { errorAssistantMessage } from "../models/error-message.js";

/** How a run that a restart re-submits is treated: resumed from its transcript, or recorded failed.
 *  A resumed run whose prompt has a later turn on top is failed (`stale` "fail", the default) or
 *  run again with its prompt at the session's leaf ("rerun": a channel message must be answered). */
export type RunRecovery =
  | { mode: "resume"; stale?: "fail" | "rerun" }
  | { mode: "fail"; reason: string };

/** What a resumed run does, decided in its lane against the transcript as it stands then. */
export type RecoveryPlan =
  /** Run the turn; `prompt` false: continue from the transcript's leaf (already moved). */
  | { kind: "run"; prompt: boolean }
  /** The reply already landed: report it without calling the model. */
  | { kind: "done"; reply: AssistantMessage }
  /** End in error, leaving in the transcript its prompt (when absent) and an error reply; "none":
   *  its failure is already recorded there (a crash came before the outcome was journaled). */
  | { kind: "fail"; error: string; record: "prompt-and-reply" | "reply" | "none" };

/** Appends a run's prompt, marked with its run id (and, for a channel turn, the inbound message
 *  keys it answers: a replay after a crash finds the turn by them, see channels/recovered-turns.ts). */
export function appendPrompt(
  transcript: TranscriptApi,
  prompt: { message: UserMessage; runId: string; inboundKeys?: readonly string[] | undefined },
) {
  const { message, runId, inboundKeys } = prompt;
  const marks = inboundKeys?.length ? { inboundKeys: [...inboundKeys] } : {};
  return transcript.append({ type: "message", message, runId, ...marks });
}

/** Appends the error reply of a turn that failed (or, `aborted`, was aborted), marked with its run id. */
export function appendFailure(
  transcript: TranscriptApi,
  failure: { error: string; runId: string; now: number; aborted?: boolean },
) {
  const message = failureReply(failure.error, failure.now);
  if (failure.aborted) message.stopReason = "aborted";
  return transcript.append({ type: "message", message, runId: failure.runId });
}

function isPromptOf(entry: TranscriptEntry, runId: string): entry is MessageEntry {
  return isMessageEntry(entry) && entry.message.role === "user" && entry.runId === runId;
}

function toolCallIds(message: TranscriptMessage): string[] {
  if (!Array.isArray(message.content)) return [];
  return message.content
    .filter((part): part is { type: "toolCall"; id: string } => part?.type === "toolCall")
    .map((part) => part.id);
}

/** A reply that ends a run (not a tool call, not a failed or aborted attempt). */
function isFinalReply(message: TranscriptMessage | undefined): message is TranscriptMessage {
  if (message?.role !== "assistant") return false;
  const stop = message.stopReason;
  return stop !== "toolUse" && stop !== "error" && stop !== "aborted";
}

type Progress =
  | { state: "absent" }
  | { state: "failed"; error: string }
  | { state: "finished"; reply: TranscriptMessage }
  | { state: "partial"; resumeFrom: string }
  | { state: "stale"; reason: string };

/** The error reply `appendFailure` left for run `runId`, if any (an aborted one — a shutdown cut the
 *  run — is not a failure: that turn resumes). */
function recordedFailure(entries: readonly TranscriptEntry[], runId: string) {
  return entries.find(
    (entry): entry is MessageEntry =>
      isMessageEntry(entry) &&
      entry.message.role === "assistant" &&
      entry.message.stopReason === "error" &&
      entry.runId === runId,
  );
}

/** Where run `runId` stands on the transcript's current branch. */
export function locateRun(entries: readonly TranscriptEntry[], runId: string): Progress {
  const failure = recordedFailure(entries, runId);
  if (failure) {
    const error = (failure.message as { errorMessage?: unknown }).errorMessage;
    return { state: "failed", error: typeof error === "string" ? error : "turn failed" };
  }
  // The latest attempt: a stale channel turn run again appended its prompt once more.
  const prompt = entries.findLast((entry) => isPromptOf(entry, runId));
  if (!prompt) return { state: "absent" };
  const branch = currentBranch(entries);
  const start = branch.findIndex((entry) => entry.id === prompt.id);
  if (start < 0)
    return { state: "stale", reason: "its prompt is no longer on the session's branch" };
  let resumeFrom = prompt.id;
  let open = new Set<string>();
  let last: TranscriptMessage | undefined;
  for (const entry of branch.slice(start + 1)) {
    if (!isMessageEntry(entry)) continue;
    const message = entry.message;
    if (message.role === "user" && typeof entry.runId === "string" && entry.runId !== runId) {
      // A later turn ran on top of this one.
      if (isFinalReply(last)) break;
      return { state: "stale", reason: "a later turn already ran in its session" };
    }
    last = message;
    if (message.role === "assistant") {
      open = new Set(message.stopReason === "toolUse" ? toolCallIds(message) : []);
    } else if (message.role === "toolResult") {
      open.delete(String(message.toolCallId));
      if (open.size === 0) resumeFrom = entry.id;
    } else if (open.size === 0) {
      resumeFrom = entry.id;
    }
  }
  if (isFinalReply(last)) return { state: "finished", reply: last };
  return { state: "partial", resumeFrom };
}

/** Decides (and prepares: moves the leaf) how a recovered run goes on. */
export function planRecovery(params: {
  transcript: TranscriptApi;
  runId: string;
  recovery: RunRecovery;
}): RecoveryPlan {
  const { transcript, runId, recovery } = params;
  const progress = locateRun(transcript.entries, runId);
  if (progress.state === "finished") {
    return { kind: "done", reply: progress.reply as unknown as AssistantMessage };
  }
  // Failed once already: report that failure again, never a second error reply.
  if (progress.state === "failed") return { kind: "fail", error: progress.error, record: "none" };
  if (progress.state === "stale") {
    if (recovery.mode === "resume" && recovery.stale === "rerun")
      return { kind: "run", prompt: true };
    return { kind: "fail", error: `turn not resumed: ${progress.reason}`, record: "reply" };
  }
  if (recovery.mode === "fail") {
    const record = progress.state === "absent" ? "prompt-and-reply" : "reply";
    return { kind: "fail", error: recovery.reason, record };
  }
  if (progress.state === "absent") return { kind: "run", prompt: true };
  transcript.setLeaf(progress.resumeFrom);
  return { kind: "run", prompt: false };
}

/** The error reply a failed recovered turn leaves in its transcript (kept out of the model's context,
 *  like every failed attempt, but shown in the session's history). */
function failureReply(error: string, now: number): AssistantMessage {
  return errorAssistantMessage({ error, provider: "pincer", model: "gateway", timestamp: now });
}
