// Running one job. A main-session `systemEvent` is queued for the agent's next heartbeat
// (wakeMode "next-heartbeat"), or with wakeMode "now" runs a heartbeat-style turn in the main session
// right away (`System: <text>` above the heartbeat prompt; a HEARTBEAT_OK reply stays quiet, any other
// reply goes where the session last talked). An isolated `agentTurn` runs in `agent:<id>:cron:<jobId>`,
// a fresh session each run (model / thinking overrides set on it), prefixed `[cron:<id> <name>]`, and
// its reply is announced (delivery.ts). A webhook job (either kind) has its finished run POSTed
// instead (webhook-delivery.ts). Every failure is an outcome, never a throw.
import type { ResolvedConfig } from "../config/index.js";
import { findAgent } from "../config/index.js";
import {
  classifyHeartbeatReply,
  DEFAULT_ACK_MAX_CHARS,
  DEFAULT_HEARTBEAT_PROMPT,
  resolveHeartbeatPlans,
} from "../gateway/heartbeat/settings.js";
import { type SystemEventQueue, withSystemEvents } from "../gateway/system-events.js";
import type { Logger } from "../lib/logger.js";
import { buildAgentMainSessionKey, toAgentStoreSessionKey } from "../routing/index.js";
import { checkModelChoice } from "../runtime/models/session-model.js";
import type { SessionStoreRegistry } from "../sessions/index.js";
import type { SessionEntry } from "../sessions/types.js";
import { type DeliveryTarget, resolveDeliveryTarget } from "./delivery.js";
import type { CronJob, CronRunOutcome } from "./types.js";
import { createWebhookDelivery } from "./webhook-delivery.js";

/** A finished turn as the executor needs it. */
export interface CronTurnResult {
  status: string;
  text: string;
  error?: string;
  model?: string;
  provider?: string;
}

/** What the executor runs turns and sends replies with (the gateway's run tracker and channels). */
export interface CronExecutorDeps {
  config: () => ResolvedConfig;
  env: Record<string, string | undefined>;
  stores: SessionStoreRegistry;
  systemEvents: SystemEventQueue;
  runTurn: (turn: {
    runId: string;
    agentId: string;
    sessionKey: string;
    message: string;
    timeoutSeconds?: number;
  }) => Promise<CronTurnResult>;
  /** Sends a reply; an error string when it did not go out. */
  send: (
    target: DeliveryTarget,
    text: string,
  ) => Promise<{ ok: true } | { ok: false; error: string }>;
  logger: Logger;
  /** The clock a run's start is read from (the webhook body's runAtMs and durationMs). */
  now: () => number;
}

/** The agent a job runs as: its own when configured, else the default agent (as OpenClaw). */
export function jobAgentId(cfg: ResolvedConfig, job: CronJob): string {
  return (job.agentId && findAgent(cfg, job.agentId)?.id) || cfg.defaultAgentId;
}

/** The isolated session of a job: OpenClaw's `cron:<jobId>` under the agent. */
export function isolatedSessionKey(params: {
  agentId: string;
  jobId: string;
  mainKey?: string;
}): string {
  return toAgentStoreSessionKey({
    agentId: params.agentId,
    requestKey: `cron:${params.jobId}`,
    ...(params.mainKey ? { mainKey: params.mainKey } : {}),
  });
}

function routeEntry(deps: CronExecutorDeps, agentId: string, key: string | undefined) {
  return key ? (deps.stores.forAgent(agentId).get(key) as SessionEntry | undefined) : undefined;
}

async function announce(params: {
  deps: CronExecutorDeps;
  job: CronJob;
  agentId: string;
  mainKey: string;
  text: string;
}): Promise<Pick<CronRunOutcome, "deliveryStatus" | "deliveryError">> {
  const { deps, job, agentId, mainKey, text } = params;
  const target = resolveDeliveryTarget({
    delivery: job.delivery,
    routes: [routeEntry(deps, agentId, job.sessionKey), routeEntry(deps, agentId, mainKey)],
  });
  if ("error" in target) return { deliveryStatus: "not-delivered", deliveryError: target.error };
  const sent = await deps.send(target, text);
  return sent.ok
    ? { deliveryStatus: "delivered" }
    : {
        deliveryStatus: "not-delivered",
        deliveryError: `${target.channel} ${target.to}: ${sent.error}`,
      };
}

async function runSystemEvent(
  deps: CronExecutorDeps,
  job: CronJob,
  runId: string,
): Promise<CronRunOutcome> {
  if (job.payload.kind !== "systemEvent") throw new Error("not a systemEvent job");
  const cfg = deps.config();
  const agentId = jobAgentId(cfg, job);
  const mainKey = buildAgentMainSessionKey({ agentId, mainKey: cfg.config.session?.mainKey });
  const text = job.payload.text;
  if (job.wakeMode === "next-heartbeat") {
    deps.systemEvents.enqueue(mainKey, text);
    return { status: "ok", summary: text, sessionKey: mainKey, deliveryStatus: "not-requested" };
  }
  const plan = resolveHeartbeatPlans(cfg).plans.find((p) => p.agentId === agentId);
  const events = [...deps.systemEvents.drain(mainKey), text];
  const result = await deps.runTurn({
    runId,
    agentId,
    sessionKey: mainKey,
    message: withSystemEvents(events, plan?.prompt ?? DEFAULT_HEARTBEAT_PROMPT),
  });
  const base = { sessionKey: mainKey, ...modelOf(result) };
  if (result.status !== "ok")
    return {
      ...base,
      status: "error",
      error: result.error ?? `turn ${result.status}`,
      deliveryStatus: "unknown",
    };
  const reply = classifyHeartbeatReply(result.text, plan?.ackMaxChars ?? DEFAULT_ACK_MAX_CHARS);
  if (reply.ack || reply.text === "")
    return { ...base, status: "ok", summary: result.text.trim(), deliveryStatus: "not-requested" };
  // The reply goes where the main session last talked (a main job has no delivery of its own).
  const delivered = await announce({
    deps,
    job: { ...job, delivery: undefined },
    agentId,
    mainKey,
    text: reply.text,
  });
  return { ...base, status: "ok", summary: reply.text, ...delivered };
}

function modelOf(result: CronTurnResult): Pick<CronRunOutcome, "model" | "provider"> {
  return {
    ...(result.model ? { model: result.model } : {}),
    ...(result.provider ? { provider: result.provider } : {}),
  };
}

/** A fresh isolated session with the job's overrides; an error when the model is refused. */
function prepareIsolated(
  deps: CronExecutorDeps,
  job: CronJob,
  agentId: string,
  sessionKey: string,
): string | undefined {
  if (job.payload.kind !== "agentTurn") return "not an agentTurn job";
  const store = deps.stores.forAgent(agentId);
  const changes: Partial<SessionEntry> = {};
  if (job.payload.model) {
    const choice = checkModelChoice(
      { cfg: deps.config(), agentId, env: deps.env },
      job.payload.model,
    );
    if (!choice.ok) return `payload.model "${job.payload.model}": ${choice.error}`;
    changes.providerOverride = choice.ref.provider;
    changes.modelOverride = choice.ref.model;
  }
  if (job.payload.thinking) changes.thinkingLevel = job.payload.thinking;
  // Each run starts a new session id (no carry-over); the old transcript is archived by reset.
  if (store.has(sessionKey)) store.reset(sessionKey);
  else store.getOrCreate(sessionKey);
  if (Object.keys(changes).length > 0) store.annotate(sessionKey, changes);
  return undefined;
}

async function runIsolated(
  deps: CronExecutorDeps,
  job: CronJob,
  runId: string,
): Promise<CronRunOutcome> {
  if (job.payload.kind !== "agentTurn") throw new Error("not an agentTurn job");
  const cfg = deps.config();
  const agentId = jobAgentId(cfg, job);
  const mainKey = buildAgentMainSessionKey({ agentId, mainKey: cfg.config.session?.mainKey });
  const sessionKey = isolatedSessionKey({
    agentId,
    jobId: job.id,
    mainKey: cfg.config.session?.mainKey,
  });
  const refused = prepareIsolated(deps, job, agentId, sessionKey);
  if (refused)
    return { status: "error", error: refused, sessionKey, deliveryStatus: "not-delivered" };
  const result = await deps.runTurn({
    runId,
    agentId,
    sessionKey,
    message: `[cron:${job.id} ${job.name}] ${job.payload.message}`,
    ...(job.payload.timeoutSeconds !== undefined
      ? { timeoutSeconds: job.payload.timeoutSeconds }
      : {}),
  });
  const sessionId = deps.stores.forAgent(agentId).get(sessionKey)?.sessionId;
  const base = { sessionKey, ...(sessionId ? { sessionId } : {}), ...modelOf(result) };
  if (result.status !== "ok")
    return {
      ...base,
      status: "error",
      error: result.error ?? `turn ${result.status}`,
      deliveryStatus: "unknown",
    };
  const text = result.text.trim();
  // No announce: nowhere ("none"), or the finished run goes to its webhook (after the run).
  const mode = job.delivery?.mode ?? "announce";
  if (mode === "none" || mode === "webhook")
    return { ...base, status: "ok", summary: text, deliveryStatus: "not-requested" };
  // A heartbeat-only reply (HEARTBEAT_OK, nothing else) is not announced.
  const reply = classifyHeartbeatReply(text, 0);
  if (reply.ack || reply.text === "")
    return { ...base, status: "ok", summary: text, deliveryStatus: "not-delivered" };
  const delivered = await announce({ deps, job, agentId, mainKey, text: reply.text });
  if (delivered.deliveryStatus === "delivered" || job.delivery?.bestEffort)
    return { ...base, status: "ok", summary: text, ...delivered };
  return {
    ...base,
    status: "error",
    error: `delivery failed: ${delivered.deliveryError}`,
    summary: text,
    ...delivered,
  };
}

/** The executor of the cron service over these deps. */
export function createCronExecutor(deps: CronExecutorDeps) {
  const webhooks = createWebhookDelivery(deps);
  const execute = async (job: CronJob, runId: string): Promise<CronRunOutcome> => {
    try {
      return job.payload.kind === "systemEvent"
        ? await runSystemEvent(deps, job, runId)
        : await runIsolated(deps, job, runId);
    } catch (err) {
      deps.logger.error({ jobId: job.id, runId, error: String(err) }, "cron: a run threw");
      return { status: "error", error: String(err), deliveryStatus: "unknown" };
    }
  };
  return async (job: CronJob, run: { runId: string }): Promise<CronRunOutcome> => {
    const runAtMs = deps.now();
    const outcome = await execute(job, run.runId);
    return webhooks.deliver({ job, runId: run.runId, runAtMs, outcome });
  };
}
