// The attempts of one run: the primary model with each usable credential, then each fallback.
// Every switch is an explicit `failover` event, also written to the transcript; a context overflow
// gets one compaction and a retry; a model policy breach ends the run instead of degrading.
import type {
  AgentEvent,
  AgentMessage,
  StreamFn,
  ThinkingLevel,
} from "@mariozechner/pi-agent-core";
import type { AssistantMessage, UserMessage } from "@mariozechner/pi-ai";
import type { ResolvedAgent } from "../../config/resolve.js";
import type { RunHooks } from "../../plugins/index.js";
import type { SessionStoreApi, TranscriptApi } from "../../sessions/index.js";
import {
  buildContextFromBranch,
  compactHistory,
  createCompactionBudget,
  planCompaction,
  resolveCompactionSettings,
} from "../compaction/index.js";
import { createSteeringHooks, type SteeringSource } from "../lanes/index.js";
import {
  type AttemptPlan,
  candidateApiKey,
  classifyFailure,
  describeUnreachable,
  type FailoverEvent,
  firstAttempt,
  type ModelChain,
  markProfileFailure,
  markProfileGood,
  nextAttempt,
  type PreferredProfileOutcome,
  penalizesProfile,
  planAttempts,
  resolveAgentModelPolicy,
  resolveCredentials,
  resolveModel,
} from "../models/index.js";
import { chainPrimaryError } from "../models/model-ref-rules.js";
import { resolveSessionModelChain } from "../models/session-model.js";
import { buildToolset } from "../tools/index.js";
import { runAttempt } from "./attempt.js";
import type { RunEvent } from "./events.js";
import { assembleRunPrompt } from "./prompt.js";
import type { AgentRuntimeDeps } from "./run-agent.js";
import { sessionReasoningEffort } from "./session-overrides.js";
import { createSessionToolsHost } from "./session-tools-host.js";
import { summarizeWith } from "./summarize.js";

/** The run's fixed surroundings: deps, the agent, its store and the open transcript. */
export interface AttemptRunner {
  deps: AgentRuntimeDeps;
  agent: ResolvedAgent;
  sessionKey: string;
  store: SessionStoreApi;
  transcript: TranscriptApi;
  /** The run's plugin hooks; absent without plugins. */
  hooks?: RunHooks;
}

/** Inputs of {@link runWithFailover}. */
export interface FailoverLoopParams {
  runner: AttemptRunner;
  runId: string;
  history: AgentMessage[];
  /** The user's message; absent, the run continues the history (a resumed turn). */
  prompt?: UserMessage;
  signal: AbortSignal;
  emit: (event: RunEvent) => void;
  onAgentEvent: (event: AgentEvent) => void;
  now: () => number;
  /** Steer mode: checked before each tool call; pending messages skip the rest of the batch. */
  steering?: SteeringSource;
  /** The model the session's branch last recorded (its latest `model_change`); none: record one. */
  recordedModel?: { provider: string; modelId: string };
  /** The model calls' transport for this turn (a budget gate); absent: the deps' one. */
  streamFn?: StreamFn;
  /** A model ref that replaces the session's primary for this turn (a budget's fallback). */
  modelOverride?: string;
  /** This turn's thinking level (an inline `/think` directive): wins over the session's and the agent's. */
  thinkingLevel?: ThinkingLevel;
}

/** The last assistant message, the model that produced it, every switch, and the error if any. */
export interface FailoverOutcome {
  final?: AssistantMessage;
  provider?: string;
  model?: string;
  failovers: FailoverEvent[];
  error?: string;
}

/** User turns whose tool results stay in the prompt when `contextPruning` sets no other number. */
const DEFAULT_KEEP_TOOL_RESULT_TURNS = 3;

function withoutFailedTail(messages: AgentMessage[]): AgentMessage[] {
  const last = messages.at(-1);
  if (
    last?.role === "assistant" &&
    (last.stopReason === "error" || last.stopReason === "aborted")
  ) {
    return messages.slice(0, -1);
  }
  return messages;
}

/** The chain's attempts for `agent`: each model with its usable credentials, the model policy applied. */
export function planAgentAttempts(input: {
  deps: AgentRuntimeDeps;
  agent: ResolvedAgent;
  chain: ModelChain;
  now: number;
  /** The session's pinned auth profile: its provider's models try it first. */
  preferProfileId?: string;
  /** Told, per provider, whether the pinned profile is tried first or why it is not. */
  onPreferred?: (provider: string, outcome: PreferredProfileOutcome) => void;
}): AttemptPlan {
  const { deps, agent } = input;
  const told = new Set<string>();
  const policy = resolveAgentModelPolicy(deps.config, agent.id);
  return planAttempts({
    chain: input.chain,
    credentialsFor: (ref) => {
      const resolved = resolveCredentials({
        agentDir: agent.agentDir,
        provider: ref.provider,
        cfg: deps.config.config,
        env: deps.env,
        now: input.now,
        ...(deps.caches ? { authStores: deps.caches.authStores } : {}),
        ...(input.preferProfileId ? { preferProfileId: input.preferProfileId } : {}),
      });
      if (resolved.preferred && !told.has(resolved.provider)) {
        told.add(resolved.provider);
        input.onPreferred?.(resolved.provider, resolved.preferred);
      }
      return resolved.candidates;
    },
    ...(policy ? { policy: policy.policy } : {}),
  });
}

/** Logs a session's pinned profile that a run cannot try first (it falls back to the normal order). */
function notePinnedProfile(deps: AgentRuntimeDeps, runner: AttemptRunner) {
  return (provider: string, outcome: PreferredProfileOutcome): void => {
    if (outcome.used) return;
    deps.log?.warn(
      {
        sessionKey: runner.sessionKey,
        provider,
        profileId: outcome.profileId,
        reason: outcome.reason,
      },
      "session auth profile override not usable; using the normal credential order",
    );
  };
}

/** Runs attempts until one succeeds, the plan is exhausted, or the run is aborted. */
export async function runWithFailover(params: FailoverLoopParams): Promise<FailoverOutcome> {
  const { runner, runId, emit } = params;
  const { deps, agent, transcript } = runner;
  const resolvedConfig = deps.config;
  const cfg = resolvedConfig.config;
  const failovers: FailoverEvent[] = [];
  const entry = runner.store.get(runner.sessionKey);
  const scope = { cfg: resolvedConfig, agentId: agent.id, env: deps.env };
  // A budget's fallback, else a plugin's model override (`before_model_resolve`), stands in for
  // the session's own.
  const override = params.modelOverride
    ? { modelOverride: params.modelOverride }
    : await runner.hooks?.resolveModel(params.prompt, params.history);
  const sessionChain = resolveSessionModelChain(scope, override ?? entry);
  if (!sessionChain.ok) return { failovers, error: sessionChain.error };
  const chain = sessionChain.chain;
  if (!chain.primary) {
    const detail = chain.problems.map((problem) => problem.message).join("; ");
    return { failovers, error: `no usable model configured for agent ${agent.id}: ${detail}` };
  }
  // An unknown model is named (with a did-you-mean) before credentials are looked for.
  const refError = chainPrimaryError({ cfg, chain, env: deps.env });
  if (refError) return { failovers, error: refError };
  const pinned = typeof entry?.authProfileOverride === "string" ? entry.authProfileOverride : "";
  const plan = planAgentAttempts({
    deps,
    agent,
    chain,
    now: params.now(),
    ...(pinned ? { preferProfileId: pinned, onPreferred: notePinnedProfile(deps, runner) } : {}),
  });
  let step = firstAttempt(plan);
  const host = createSessionToolsHost({ deps, agentId: agent.id, sessionKey: runner.sessionKey });
  const budget = createCompactionBudget(1);
  const steering = params.steering ? createSteeringHooks(params.steering) : undefined;
  const pruning = resolvedConfig.defaults.contextPruning;
  // Old tool outputs leave the prompt (not the transcript) unless pruning is off.
  const keepToolResultTurns =
    pruning?.mode === "off"
      ? undefined
      : (pruning?.keepLastAssistants ?? DEFAULT_KEEP_TOOL_RESULT_TURNS);
  let context = params.history;
  let prompt: UserMessage | undefined = params.prompt;
  let systemPrompt: string | undefined;
  let lastModel = "";
  let recorded = params.recordedModel;
  const reasoning = params.thinkingLevel
    ? sessionReasoningEffort({ thinkingLevel: params.thinkingLevel })
    : sessionReasoningEffort(entry, agent.thinkingDefault);
  while (step.kind === "attempt") {
    const attempt = plan.attempts[step.index];
    if (step.event) {
      failovers.push(step.event);
      emit({ ...step.event, runId });
      transcript.append({ type: "custom", customType: "pincer:failover", data: step.event });
    }
    const resolved = resolveModel({ cfg, ref: attempt.ref, env: deps.env });
    if (!resolved.ok) return { failovers, error: resolved.error };
    const model = resolved.model;
    const pluginTools = runner.hooks?.pluginTools();
    const built = buildToolset({
      cfg: resolvedConfig,
      agentId: agent.id,
      sessionKey: runner.sessionKey,
      workspaceDir: agent.workspace,
      host,
      jobs: deps.jobs,
      ...(deps.cronTools ? { cron: deps.cronTools(agent.id) } : {}),
      ...(deps.nodeTools ? { nodes: deps.nodeTools } : {}),
      signal: params.signal,
      provider: model.provider,
      modelId: model.id,
      api: model.api,
      now: params.now,
      env: deps.env,
      stateDir: deps.paths.stateDir,
      ...(deps.caches ? { memoryIndexes: deps.caches.memory } : {}),
      ...(pluginTools?.length ? { extraTools: pluginTools } : {}),
      ...(deps.approvals ? { approvals: deps.approvals } : {}),
      elevatedLevel: entry?.elevatedLevel,
    });
    const tools = runner.hooks ? runner.hooks.wrapTools(built) : built;
    const assembled = systemPrompt === undefined;
    systemPrompt ??= (
      await assembleRunPrompt({
        cfg: resolvedConfig,
        paths: deps.paths,
        env: deps.env,
        agent,
        sessionKey: runner.sessionKey,
        store: runner.store,
        tools,
        model: attempt.model,
        ...(deps.bundledSkillsDir ? { bundledSkillsDir: deps.bundledSkillsDir } : {}),
        now: params.now(),
        ...(deps.caches ? { caches: deps.caches } : {}),
        ...(deps.bootstrapHooks ? { bootstrapHooks: deps.bootstrapHooks } : {}),
      })
    ).systemPrompt;
    if (assembled && runner.hooks)
      systemPrompt = await runner.hooks.buildPrompt({ systemPrompt, prompt, messages: context });
    if (attempt.model !== lastModel) {
      // The transcript records a switch, not every turn's (unchanged) model.
      if (recorded?.provider !== model.provider || recorded?.modelId !== model.id) {
        transcript.append({ type: "model_change", provider: model.provider, modelId: model.id });
        recorded = { provider: model.provider, modelId: model.id };
      }
      emit({
        type: "model",
        runId,
        provider: model.provider,
        model: model.id,
        credential: attempt.credential.id,
      });
      lastModel = attempt.model;
    }
    // An OAuth access token near expiry is refreshed first; a failed refresh is an auth failure.
    const key = await candidateApiKey({
      agentDir: agent.agentDir,
      candidate: attempt.credential,
      now: params.now(),
    });
    if (!key.ok) {
      const profileId = attempt.credential.profileId;
      if (profileId) {
        markProfileFailure({
          agentDir: agent.agentDir,
          profileId,
          reason: "auth",
          now: params.now(),
          cfg,
        });
      }
      step = nextAttempt({ plan, index: step.index, reason: "auth", detail: key.error });
      if (step.kind === "stop") return { failovers, error: step.message };
      continue;
    }
    const outcome = await runAttempt({
      model,
      apiKey: key.apiKey,
      systemPrompt,
      messages: [...context],
      ...(prompt ? { prompt } : {}),
      tools,
      params: chain.params,
      ...(reasoning ? { reasoning } : {}),
      signal: params.signal,
      ...(steering ? { steering } : {}),
      ...(keepToolResultTurns !== undefined ? { keepToolResultTurns } : {}),
      ...((params.streamFn ?? deps.streamFn) ? { streamFn: params.streamFn ?? deps.streamFn } : {}),
      onEvent: params.onAgentEvent,
    });
    context = [...context, ...outcome.added];
    prompt = undefined;
    const final = outcome.final;
    const profileId = attempt.credential.profileId;
    if (final?.stopReason !== "error") {
      if (profileId) {
        const authStores = deps.caches?.authStores;
        markProfileGood({
          agentDir: agent.agentDir,
          profileId,
          now: params.now(),
          ...(authStores ? { authStores } : {}),
        });
      }
      return { ...(final ? { final } : {}), provider: model.provider, model: model.id, failovers };
    }
    const reason = classifyFailure(final);
    context = withoutFailedTail(context);
    if (reason === "context_overflow" && budget.tryAcquire()) {
      const compacted = await compactSession({
        runner,
        model,
        apiKey: key.apiKey,
        signal: params.signal,
      });
      emit({ type: "compaction", runId, ok: compacted.ok, detail: compacted.detail });
      if (!compacted.ok)
        return { final, failovers, error: `context overflow; ${compacted.detail}` };
      context = compacted.context;
      continue;
    }
    if (profileId && penalizesProfile(reason)) {
      markProfileFailure({ agentDir: agent.agentDir, profileId, reason, now: params.now(), cfg });
    }
    const detail =
      reason === "unreachable"
        ? await describeUnreachable({
            provider: model.provider,
            baseUrl: model.baseUrl,
            errorText: final.errorMessage ?? "",
          })
        : undefined;
    step = nextAttempt({ plan, index: step.index, reason, ...(detail ? { detail } : {}) });
    if (step.kind === "stop") {
      return { final, provider: model.provider, model: model.id, failovers, error: step.message };
    }
  }
  return { failovers, error: step.message };
}

/** Summarizes the session's older history into a `compaction` entry and returns the rebuilt context. */
export async function compactSession(input: {
  runner: AttemptRunner;
  model: Parameters<typeof summarizeWith>[0]["model"];
  apiKey: string;
  signal: AbortSignal;
  /** The user's instructions for the summary (manual compaction only). */
  instructions?: string;
}): Promise<{ ok: true; context: AgentMessage[]; detail: string } | { ok: false; detail: string }> {
  const { runner } = input;
  const messageCount = runner.hooks ? buildContextFromBranch(runner.transcript.branch()).length : 0;
  await runner.hooks?.compaction("before", { messageCount });
  // The open transcript holds every entry (the store revalidated it against the file on open).
  const plan = planCompaction({
    ...resolveCompactionSettings(runner.deps.config.defaults.compaction),
    entries: runner.transcript.branch(),
    contextWindow: input.model.contextWindow,
    force: true,
  });
  const result = await compactHistory({
    plan,
    summarize: summarizeWith({
      model: input.model,
      apiKey: input.apiKey,
      streamFn: runner.deps.streamFn,
      ...(input.instructions ? { instructions: input.instructions } : {}),
    }),
    transcript: runner.transcript,
    signal: input.signal,
  });
  if (!result.ok) return { ok: false, detail: result.error.message };
  const context = withoutFailedTail(
    buildContextFromBranch(runner.transcript.branch()) as AgentMessage[],
  );
  const after = { messageCount: context.length, tokenCount: result.tokensBefore };
  await runner.hooks?.compaction("after", {
    ...after,
    compactedCount: messageCount - context.length,
  });
  return { ok: true, context, detail: `summarized ${result.tokensBefore} tokens of older history` };
}
