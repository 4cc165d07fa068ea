// runAgent: one serialized turn of one session. Loads the history, builds the prompt, resolves the
// model chain and credentials, runs the loop with failover, writes every message to the transcript,
// updates the session entry, and reports it all as RunEvents plus a final RunResult.

import { randomUUID } from "node:crypto";
import type { AgentEvent, AgentMessage, StreamFn } from "@mariozechner/pi-agent-core";
import type { ImageContent, Usage, UserMessage } from "@mariozechner/pi-ai";
import type { BootstrapHookRegistry } from "../../agents/bootstrap-hooks.js";
import { seedWorkspace } from "../../agents/workspace.js";
import type { StatePaths } from "../../config/paths.js";
import { lookupAgent, type ResolvedConfig } from "../../config/resolve.js";
import type { Logger } from "../../lib/logger.js";
import { type PluginHost, runHooksFor } from "../../plugins/index.js";
import { normalizeAgentId, resolveAgentIdFromSessionKey } from "../../routing/index.js";
import {
  applySessionResetPolicy,
  hostTimeZone,
  type SessionStoreRegistry,
  type TranscriptEntry,
} from "../../sessions/index.js";
import type { ExecApprovalsHost } from "../approvals/index.js";
import { buildContextFromBranch } from "../compaction/index.js";
import { LaneCancelledError, type LaneScheduler, type SteeringSource } from "../lanes/index.js";
import type { FailoverEvent } from "../models/index.js";
import type { CronToolHost } from "../tools/cron-tool.js";
import type { ProcessRegistry } from "../tools/index.js";
import type { NodesToolHost } from "../tools/nodes-tool.js";
import type { BudgetLedger, PresetTurnBudget } from "../usage/index.js";
import { createEventChannel, type RunEvent, type RunStatus } from "./events.js";
import { markFailedTurn, type TurnAppends } from "./failed-turn.js";
import { type AttemptRunner, runWithFailover } from "./failover-loop.js";
import { takeInlineDirectives } from "./inline-directives.js";
import { endRecoveredRun } from "./recovered-run.js";
import { type ReplyDisplay, replyDisplay } from "./reply-display.js";
import { assistantText, replyPayloads } from "./reply-payloads.js";
import type { RunCaches } from "./run-caches.js";
import { appendLoopMessage } from "./steered-entries.js";
import {
  appendPrompt,
  planRecovery,
  type RecoveryPlan,
  type RunRecovery,
} from "./turn-recovery.js";
import { startTurnUsage } from "./turn-usage.js";

/** Everything a run needs from the outside world; passed in, never global. */
export interface AgentRuntimeDeps {
  /** The resolved config current at the run's start (a reload never touches a running turn). */
  config: ResolvedConfig;
  paths: StatePaths;
  env: Record<string, string | undefined>;
  stores: SessionStoreRegistry;
  lanes: LaneScheduler;
  jobs: ProcessRegistry;
  clock?: { now(): number };
  /** Model transport; default pi-ai's streamSimple. Tests pass pi-ai's faux stream here. */
  streamFn?: StreamFn;
  bundledSkillsDir?: string;
  /** Between-turn caches (see createRunCaches); absent, every turn reads and builds afresh. */
  caches?: RunCaches;
  /** The gateway's cron access per agent (the `cron` tool); absent outside a gateway: no such tool. */
  cronTools?: (agentId: string) => CronToolHost;
  /** The gateway's node hosts (the `nodes` tool); absent outside a gateway: no such tool. */
  nodeTools?: NodesToolHost;
  /** Where a run logs what it works around (a session's unusable auth profile pin); absent: silent. */
  log?: Logger;
  /** Usage log and budgets (the gateway's); absent, turns are neither recorded nor limited. */
  usage?: BudgetLedger;
  /** The gateway's loaded plugins (hooks, plugin tools); absent: no plugin, no hook is called. */
  plugins?: PluginHost;
  /** The gateway's exec approvals (pending requests and the approvals file); absent: none asked. */
  approvals?: ExecApprovalsHost;
  /** `agent:bootstrap` hooks (internal hooks) applied to the injected files of every prompt. */
  bootstrapHooks?: BootstrapHookRegistry;
}

/** One message into one session: everything a run is started with. */
export interface RunAgentParams {
  /** The run's id (an RPC's idempotencyKey, a channel turn's lane run, a resumed turn's old id);
   *  absent: a fresh one. */
  runId?: string;
  /** Defaults to the agent named in the session key. */
  agentId?: string;
  sessionKey: string;
  message: string;
  images?: ImageContent[];
  signal?: AbortSignal;
  /** The caller's timeout (agent RPC `timeout`, chat.send `timeoutMs`): wins over the agent's
   *  `timeoutSeconds` (entry, else `agents.defaults`, else 600; 0 = none). */
  timeoutSeconds?: number;
  /** Steer mode: messages that arrive during the run (the inbound queue's `QueuedTurn`). */
  steering?: SteeringSource;
  /** The run already holds its session's lane slot (an inbound-queue turn, whose signal this is): it
   *  starts at once under this signal instead of queueing in the lane a second time. */
  laneSlot?: AbortSignal;
  /** A turn accepted before a restart (the gateway's turn journal). "resume" goes on from what its
   *  transcript holds (its prompt never appended twice; a reply that already landed is returned
   *  without a model call); "fail" records it as failed in the session instead of running it. */
  recovery?: RunRecovery;
  /** The channel messages this run answers (inbound dedupe keys), marked on its prompt entry. */
  inboundKeys?: readonly string[];
  /** The budget decision made before the turn was queued (cluster mode: the gateway's). */
  budget?: PresetTurnBudget;
}

/** A reply to deliver: text (directives removed) and media URLs. */
export interface ReplyPayload {
  text: string;
  media: string[];
  voice: boolean;
  replyTo?: string;
}

/** How a run ended, what it produced and what it cost. */
export interface RunResult {
  runId: string;
  status: RunStatus;
  payloads: ReplyPayload[];
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
  durationMs: number;
  provider?: string;
  model?: string;
  failovers: FailoverEvent[];
  error?: string;
  /** Display-only extras of the reply (usage footer, reasoning), per the session's settings. */
  display?: ReplyDisplay;
}

/** A started run: its id at once, its events as they happen, its result at the end. */
export interface RunHandle {
  runId: string;
  events: AsyncIterable<RunEvent>;
  result: Promise<RunResult>;
}

function emptyUsage(): RunResult["usage"] {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
}

function addUsage(total: RunResult["usage"], usage: Usage | undefined): void {
  if (!usage) return;
  total.input += usage.input;
  total.output += usage.output;
  total.cacheRead += usage.cacheRead;
  total.cacheWrite += usage.cacheWrite;
  total.total += usage.totalTokens;
}

/** The display extras with the budget's notice as a footer line under the usage footer. */
function withNotice(display: ReplyDisplay | undefined, notice: string | undefined) {
  if (!notice) return display;
  const usageFooter = display?.usageFooter ? `${display.usageFooter}\n${notice}` : notice;
  return { ...display, usageFooter };
}

/** The model of the branch's latest `model_change` entry, if any. */
function lastRecordedModel(
  branch: readonly TranscriptEntry[],
): { provider: string; modelId: string } | undefined {
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i]!;
    if (entry.type !== "model_change") continue;
    const { provider, modelId } = entry as { provider?: unknown; modelId?: unknown };
    return typeof provider === "string" && typeof modelId === "string"
      ? { provider, modelId }
      : undefined;
  }
  return undefined;
}

/** The result of a run that threw instead of returning one: cancelled before it started (aborted),
 *  or failed (error, with the cause's message). */
function thrownResult(runId: string, err: unknown): RunResult {
  const error = err instanceof Error ? err.message : String(err);
  return {
    runId,
    status: err instanceof LaneCancelledError ? "aborted" : "error",
    payloads: [],
    usage: emptyUsage(),
    durationMs: 0,
    failovers: [],
    error,
  };
}

/** Settles a run: a rejection (cancelled before start, or a failure) still yields a result and an
 *  event. */
function settle(params: {
  runId: string;
  promise: Promise<RunResult>;
  emit: (event: RunEvent) => void;
  close: () => void;
}): Promise<RunResult> {
  return params.promise
    .catch((err: unknown): RunResult => {
      const result = thrownResult(params.runId, err);
      params.emit({
        type: "lifecycle",
        runId: result.runId,
        phase: "error",
        error: result.error ?? "",
      });
      return result;
    })
    .finally(params.close);
}

/** Starts a run: the one way every caller (CLI, gateway WS turns, channel turns, session tools)
 *  starts one. It queues in the session's lane (a second message to the same session waits for the
 *  first), unless `params.laneSlot` says it already holds that lane's slot (an inbound-queue turn). */
export function runAgent(deps: AgentRuntimeDeps, params: RunAgentParams): RunHandle {
  const channel = createEventChannel<RunEvent>();
  const emit = (event: RunEvent) => channel.push(event);
  const close = () => channel.close();
  const slot = params.laneSlot;
  if (slot) {
    const runId = params.runId ?? randomUUID();
    const promise = executeRun({ deps, params, runId, laneSignal: slot, emit });
    return { runId, events: channel, result: settle({ runId, promise, emit, close }) };
  }
  const handle = deps.lanes.enqueue(
    params.sessionKey,
    (laneSignal, info) => executeRun({ deps, params, runId: info.runId, laneSignal, emit }),
    params.runId ? { runId: params.runId } : {},
  );
  const { runId } = handle;
  return { runId, events: channel, result: settle({ runId, promise: handle.result, emit, close }) };
}

interface ExecuteParams {
  deps: AgentRuntimeDeps;
  params: RunAgentParams;
  runId: string;
  laneSignal: AbortSignal;
  emit: (event: RunEvent) => void;
}

async function executeRun(input: ExecuteParams): Promise<RunResult> {
  const { deps, params, runId, emit } = input;
  const now = () => deps.clock?.now() ?? Date.now();
  const started = now();
  const agentId = normalizeAgentId(
    params.agentId ?? resolveAgentIdFromSessionKey(params.sessionKey),
  );
  const agent = lookupAgent(deps.config, agentId);
  // The workspace is the tools' cwd: make sure it exists (seeded unless skipBootstrap).
  const seed = { dir: agent.workspace, skipBootstrap: agent.skipBootstrap };
  await (deps.caches ? deps.caches.workspaces.ensure(seed) : seedWorkspace(seed));
  const store = deps.stores.forAgent(agentId);
  // Lifecycle policies and reset triggers, before the message lands (a recovered turn keeps its session).
  const turn = params.recovery
    ? undefined
    : applySessionResetPolicy({
        store,
        sessionKey: params.sessionKey,
        session: deps.config.config.session,
        message: params.message,
        now: now(),
        timeZone: hostTimeZone,
      });
  // `/think <level> <text>`: this turn only runs at that level, and the model gets only the text.
  const directives = takeInlineDirectives(turn?.message ?? params.message);
  const message = directives.message;
  const { entry: session } = store.getOrCreate(params.sessionKey);
  if (turn?.bareTrigger) {
    emit({ type: "lifecycle", runId, phase: "start", agentId, sessionKey: params.sessionKey });
    emit({ type: "lifecycle", runId, phase: "end", status: "ok" });
    const text = `New session started (id ${session.sessionId}).`;
    const base = { runId, failovers: [], durationMs: now() - started, usage: emptyUsage() };
    return { ...base, status: "ok", payloads: replyPayloads(text) };
  }
  // A new session's transcript waits for its index entry's fsync without blocking other turns.
  const transcript = await store.openTranscriptAsync(params.sessionKey, { cwd: agent.workspace });
  emit({ type: "lifecycle", runId, phase: "start", agentId, sessionKey: params.sessionKey });
  const prompt: UserMessage = {
    role: "user",
    content: params.images?.length ? [{ type: "text", text: message }, ...params.images] : message,
    timestamp: now(),
  };
  const plan: RecoveryPlan = params.recovery
    ? planRecovery({ transcript, runId, recovery: params.recovery })
    : { kind: "run", prompt: true };
  if (plan.kind !== "run") {
    const { sessionKey } = params;
    return endRecoveredRun({
      plan,
      store,
      config: deps.config.config,
      transcript,
      sessionKey,
      runId,
      prompt,
      emit,
      now,
      started,
    });
  }

  // The budget decides before any model call (a blocked turn is answered without one).
  const accounting = await startTurnUsage({
    deps,
    agentId,
    sessionKey: params.sessionKey,
    runId,
    priorCostUsd: typeof session.estimatedCostUsd === "number" ? session.estimatedCostUsd : 0,
    now,
    ...(params.budget ? { preset: params.budget } : {}),
  });
  // Timeout, caller abort and lane cancel all end in one signal the loop and the tools honour.
  const controller = new AbortController();
  const seconds = params.timeoutSeconds ?? agent.timeoutSeconds;
  let timedOut = false;
  // 0 means no timeout at all (never a timer that fires at once).
  const timer =
    seconds > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new Error(`run timed out after ${seconds}s`));
        }, seconds * 1000)
      : undefined;
  const onAbort = () => controller.abort(new Error("run aborted"));
  for (const signal of [params.signal, input.laneSignal]) {
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
  }

  // The open transcript already parsed the file: no second read per turn.
  const branch = transcript.branch();
  const history = buildContextFromBranch(branch) as AgentMessage[];
  const recordedModel = lastRecordedModel(branch);
  const usage = emptyUsage();
  let cost = 0;
  const appends: TurnAppends = { promptAppended: false };
  const hooks = runHooksFor(deps.plugins, {
    ...{ agentId, sessionKey: params.sessionKey, sessionId: session.sessionId, runId },
    workspaceDir: agent.workspace,
    now,
  });
  const added: AgentMessage[] = [];
  const onAgentEvent = (event: AgentEvent) => {
    if (event.type === "message_end") {
      // The prompt carries the run id, so a restart can tell it already landed.
      if (event.message === prompt) {
        appendPrompt(transcript, { message: prompt, runId, inboundKeys: params.inboundKeys });
        appends.promptAppended = true;
      } else {
        const message = hooks ? hooks.persist(event.message) : event.message;
        appendLoopMessage(transcript, { message, original: event.message, runId });
      }
      if (hooks) added.push(event.message);
      appends.last = event.message;
      if (event.message.role === "assistant") {
        accounting.add(event.message);
        addUsage(usage, event.message.usage);
        cost += event.message.usage?.cost?.total ?? 0;
      }
    } else if (event.type === "message_update") {
      const update = event.assistantMessageEvent;
      if (update.type === "text_delta")
        emit({ type: "assistant_delta", runId, text: update.delta });
    } else if (event.type === "tool_execution_start") {
      const { toolCallId, toolName, args } = event;
      emit({ type: "tool_start", runId, toolCallId, toolName, args });
    } else if (event.type === "tool_execution_end") {
      const { toolCallId, toolName, isError, result } = event;
      emit({ type: "tool_end", runId, toolCallId, toolName, isError, result });
    }
  };
  const runner: AttemptRunner = {
    deps,
    agent,
    sessionKey: params.sessionKey,
    store,
    transcript,
    ...(hooks ? { hooks } : {}),
  };
  try {
    const outcome = await runWithFailover({
      runner,
      runId,
      history,
      ...(plan.prompt ? { prompt } : {}),
      signal: controller.signal,
      emit,
      onAgentEvent,
      now,
      ...(params.steering ? { steering: params.steering } : {}),
      ...(recordedModel ? { recordedModel } : {}),
      ...(directives.thinkingLevel ? { thinkingLevel: directives.thinkingLevel } : {}),
      ...(accounting.streamFn ? { streamFn: accounting.streamFn } : {}),
      ...(accounting.budget.modelOverride
        ? { modelOverride: accounting.budget.modelOverride }
        : {}),
    });
    const final = outcome.final;
    const status: RunStatus = timedOut
      ? "timeout"
      : controller.signal.aborted
        ? "aborted"
        : outcome.error
          ? "error"
          : "ok";
    const payloads: ReplyPayload[] = status === "ok" ? replyPayloads(assistantText(final)) : [];
    const error = timedOut ? `run timed out after ${seconds}s` : outcome.error;
    hooks?.end({
      messages: [...history, ...added],
      success: status === "ok",
      ...(error ? { error } : {}),
      durationMs: now() - started,
    });
    markFailedTurn({
      transcript,
      runId,
      ...(plan.prompt ? { prompt } : {}),
      appends,
      status,
      ...(error ? { error } : {}),
      now: now(),
    });
    const { provider: usedProvider, model: usedModel } = outcome;
    const spent = accounting.finish({
      status: status === "ok" ? "ok" : "error",
      ...(usedProvider ? { provider: usedProvider } : {}),
      ...(usedModel ? { model: usedModel } : {}),
    });
    store.update(params.sessionKey, {
      inputTokens: usage.input,
      outputTokens: usage.output,
      totalTokens: usage.total,
      ...spent,
      ...(outcome.provider ? { modelProvider: outcome.provider } : {}),
      ...(outcome.model ? { model: outcome.model } : {}),
    });
    // The turn is on disk before anyone delivers its reply.
    await store.flush();
    const { provider, model } = outcome;
    const shown =
      status === "ok"
        ? replyDisplay({
            sources: { entry: store.get(params.sessionKey), config: deps.config.config },
            usage,
            cost,
            ...(provider ? { provider } : {}),
            ...(model ? { model } : {}),
            final,
          })
        : undefined;
    const display = withNotice(shown, accounting.budget.notice);
    emit(
      error && status !== "ok"
        ? { type: "lifecycle", runId, phase: "error", error }
        : { type: "lifecycle", runId, phase: "end", status },
    );
    return {
      runId,
      status,
      payloads,
      usage,
      durationMs: now() - started,
      ...(outcome.provider ? { provider: outcome.provider } : {}),
      ...(outcome.model ? { model: outcome.model } : {}),
      failovers: outcome.failovers,
      ...(error ? { error } : {}),
      ...(display ? { display } : {}),
    };
  } finally {
    clearTimeout(timer);
    for (const signal of [params.signal, input.laneSignal]) {
      signal?.removeEventListener("abort", onAbort);
    }
  }
}
