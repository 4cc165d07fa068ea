// Ends a recovered run that needs no model call: its reply already landed before the crash (answered
// from the transcript), or it is recorded as failed (prompt and an error reply left in the session,
// so the failure is visible there as well as in agent.wait and the turn journal).
import type { UserMessage } from "@mariozechner/pi-ai";
import type { SessionStore, Transcript } from "../../sessions/index.js";
import type { RunEvent } from "./events.js";
import { assistantText, replyPayloads } from "./reply-payloads.js";
import type { RunResult } from "./run-agent.js";
import { appendFailure, appendPrompt, type RecoveryPlan } from "./turn-recovery.js";

/** Inputs of {@link endRecoveredRun}. */
export interface EndRecoveredRunParams {
  plan: Exclude<RecoveryPlan, { kind: "run" }>;
  store: SessionStore;
  transcript: Transcript;
  sessionKey: string;
  runId: string;
  prompt: UserMessage;
  emit: (event: RunEvent) => void;
  now: () => number;
  started: number;
}

/** The run's result from the transcript (done) or as a recorded failure (fail). */
export async function endRecoveredRun(params: EndRecoveredRunParams): Promise<RunResult> {
  const { plan, runId, emit } = params;
  const base = { runId, failovers: [], durationMs: params.now() - params.started };
  if (plan.kind === "done") {
    const { reply } = plan;
    const usage = reply.usage;
    emit({ type: "lifecycle", runId, phase: "end", status: "ok" });
    return {
      ...base,
      status: "ok",
      payloads: replyPayloads(assistantText(reply)),
      usage: {
        input: usage?.input ?? 0,
        output: usage?.output ?? 0,
        cacheRead: usage?.cacheRead ?? 0,
        cacheWrite: usage?.cacheWrite ?? 0,
        total: usage?.totalTokens ?? 0,
      },
      provider: reply.provider,
      model: reply.model,
    };
  }
  const { transcript } = params;
  if (plan.record === "prompt-and-reply")
    appendPrompt(transcript, { message: params.prompt, runId });
  if (plan.record !== "none") {
    appendFailure(transcript, { error: plan.error, runId, now: params.now() });
    params.store.update(params.sessionKey, {});
    await params.store.flush();
  }
  emit({ type: "lifecycle", runId, phase: "error", error: plan.error });
  return {
    ...base,
    status: "error",
    payloads: [],
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    error: plan.error,
  };
}
