// Ends a recovered run that needs no model call: its reply already landed before the crash (answered
// from the transcript), or it is recorded as failed (prompt and an error reply left in the session,
// so the failure is visible there as well as in agent.wait and the turn journal).
import type { UserMessage } from "@mariozechner/pi-ai";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import type { SessionStoreApi, TranscriptApi } from "../../sessions/index.js";
import type { RunEvent } from "./events.js";
import { replyDisplay } from "./reply-display.js";
import { assistantText, replyPayloads } from "./reply-payloads.js";
import type { RunResult } from "./run-agent.js";
import { appendFailure, appendPrompt, type RecoveryPlan } from "./turn-recovery.js";

/** Inputs of {@link endRecoveredRun}. */
export interface EndRecoveredRunParams {
  plan: Exclude<RecoveryPlan, { kind: "run" }>;
  store: SessionStoreApi;
  /** The config the run started with (the reply's display settings). */
  config: OpenClawConfig;
  transcript: TranscriptApi;
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
    const tokens = {
      input: reply.usage?.input ?? 0,
      output: reply.usage?.output ?? 0,
      cacheRead: reply.usage?.cacheRead ?? 0,
      cacheWrite: reply.usage?.cacheWrite ?? 0,
    };
    emit({ type: "lifecycle", runId, phase: "end", status: "ok" });
    // Shown as a reply of this session is: its usage footer and reasoning, as the run would have.
    const display = replyDisplay({
      sources: { entry: params.store.get(params.sessionKey), config: params.config },
      usage: tokens,
      cost: reply.usage?.cost?.total ?? 0,
      provider: reply.provider,
      model: reply.model,
      final: reply,
    });
    return {
      ...base,
      status: "ok",
      payloads: replyPayloads(assistantText(reply)),
      usage: { ...tokens, total: reply.usage?.totalTokens ?? 0 },
      provider: reply.provider,
      model: reply.model,
      ...(display ? { display } : {}),
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
