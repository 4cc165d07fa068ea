// Steps 6–8 for a cleared message: session entry + delivery context, the host's one inbound queue
// (settings from `resolveQueueSettings`; different reply routes never coalesce; each message carries
// its typed reply route), the turn's run started through `startRun` with a typing indicator, and delivery of the reply to exactly where the message came from.
// Sequential broadcast groups hand the message to the next agent once a reply is delivered. An agent
// whose reply to a message is already recorded in the delivery queue (a restart replaying it) is not
// run again: the queue finishes or reports that reply. A replayed message whose turn's prompt already
// landed in its session goes on as that turn (recovered-turns.ts), never as a second one.
import type { ImageContent } from "@mariozechner/pi-ai";
import type { OpenClawConfig } from "../protocol/config/index.js";
import type { MatchedBy } from "../routing/index.js";
import {
  createInboundQueue,
  type InboundMessage,
  type InboundQueue,
  type LaneScheduler,
  type QueuedTurn,
  queueOverrideFromSession,
  resolveQueueSettings,
} from "../runtime/lanes/index.js";
import type { AgentRuntimeDeps, RunAgentParams, RunResult } from "../runtime/run/index.js";
// Its own module, not the run index: channel code loads no model code before the first run.
import { queuedTurnRun } from "../runtime/run/queued-turn.js";
import { applySessionResetPolicy, type SessionStoreRegistry } from "../sessions/index.js";
import type { DeliveryReport } from "./delivery/deliver.js";
import type { DeliveryQueue } from "./delivery/delivery-queue.js";
import type { InboundJournal, InboundSettlement } from "./inbound/inbound-journal.js";
import type { DispatchRequest } from "./inbound/pipeline.js";
import { inboundDedupeKey } from "./inbound/redelivery-filter.js";
import type { RouteTarget } from "./inbound/route.js";
import { inboundSessionPatch } from "./inbound/session-origin.js";
import { answeredKeys, createTurnRecovery, routeKeys } from "./recovered-turns.js";
import { type RunEventListener, turnToolProgress } from "./tool-progress.js";
import { startTurnFeedback } from "./turn-feedback.js";
import { deliverTurnReply, replyTarget, type TurnReplyParams } from "./turn-reply.js";
import { coveredOutcome, turnOutcome } from "./turn-settlement.js";
import type {
  ChannelAccountConfig,
  ChannelAccountRuntime,
  ChannelCapabilities,
  ChannelInbound,
  Logger,
} from "./types.js";

/** Where a queued message's reply goes and who answers it (the payload of its queued message). */
export interface ReplyRoute {
  agentId: string;
  sessionKey: string;
  /** The inbound message (without `raw`): channel, account, peer, thread, message id. */
  inbound: ChannelInbound;
  /** Sequential broadcast: agents still to answer, in order. */
  rest: RouteTarget[];
  body: string;
  /** The routing tier that chose the agent (absent for a broadcast group's fan-out). */
  matchedBy?: MatchedBy;
  /** A turn a restart cut, re-queued as its run: every message it answers (their inbound keys). */
  recovered?: { runId: string; keys: string[] };
}

/** A message of the host's inbound queue: its reply route rides along, typed. */
export type ChannelMessage = InboundMessage<ReplyRoute>;

/** What a channel turn's run is started with: `runAgent`'s params with its id and agent given, and
 *  what an abort from outside (chat.abort, shutdown) also does (drop what its session has queued);
 *  the starter owns the abort signal. */
export interface ChannelRunRequest extends Omit<RunAgentParams, "signal"> {
  runId: string;
  agentId: string;
  onAbort: () => void;
  /** Each run event as it happens (a verbose session's tool messages). */
  onEvent?: RunEventListener;
}

/** Starts a channel turn's run: the gateway's one run start (it maps the run to `chat`/`agent`
 *  events, chat.abort and the shutdown drain). */
export type StartChannelRun = (
  request: ChannelRunRequest,
) => Promise<{ runId: string; result: Promise<RunResult> }>;

/** Everything the dispatcher needs; passed in. */
export interface ChannelDispatcherDeps {
  config: () => OpenClawConfig;
  stores: SessionStoreRegistry;
  lanes: LaneScheduler;
  /** Runtime deps of the config current now (media policy paths). */
  runtimeDeps: () => Promise<AgentRuntimeDeps>;
  startRun: StartChannelRun;
  accountRuntime: (channel: string, accountId: string) => ChannelAccountRuntime | undefined;
  capabilities: (channel: string) => ChannelCapabilities | undefined;
  accountConfig: (channel: string, accountId: string) => ChannelAccountConfig;
  /** The durable outbound queue: replies, and which messages a recorded reply already answers. */
  deliveries: Pick<DeliveryQueue, "deliver" | "covered">;
  /** Where each message's final fate is recorded (replied, dropped, failed). */
  journal: Pick<InboundJournal, "settle">;
  log: Logger;
  /** Called around each delivery (pending-delivery counts in status). */
  onDeliveryState?: (channel: string, accountId: string, delta: 1 | -1) => void;
}

/** The dispatcher: `dispatch` queues a cleared message for each of its agents. */
export interface ChannelDispatcher {
  dispatch(request: DispatchRequest): void;
  readonly queue: InboundQueue<ReplyRoute>;
  /** Resolves once every reply whose run has finished is delivered (or failed): shutdown waits. */
  deliveriesSettled(): Promise<void>;
  /** Shutdown began: runs aborted and messages cancelled from now on stay unsettled (replayed). */
  pause(): void;
}

/** The reply-route key: messages with different keys are never coalesced into one turn. */
export function replyRouteKey(
  inbound: Pick<ChannelInbound, "channel" | "accountId" | "peer" | "threadId">,
): string {
  const { channel, accountId, peer, threadId } = inbound;
  return [channel, accountId, `${peer.kind}:${peer.id}`, threadId ?? ""].join("|");
}

/** Images the adapter already downloaded (base64), for a model that can see them. */
function inboundImages(media: ChannelInbound["media"]): ImageContent[] {
  const images: ImageContent[] = [];
  for (const item of media) {
    if (item.kind === "image" && item.data)
      images.push({ type: "image", data: item.data, mimeType: item.mimeType ?? "image/jpeg" });
  }
  return images;
}

/** Creates the dispatcher and its inbound queue (one per host). */
export function createChannelDispatcher(deps: ChannelDispatcherDeps): ChannelDispatcher {
  const deliveries = new Set<Promise<DeliveryReport | undefined>>();
  // Agents still to answer each message (parallel broadcast fans one message out to several).
  const unanswered = new Map<string, number>();
  let paused = false;
  const recovery = createTurnRecovery({ stores: deps.stores, log: deps.log });
  const settle = (route: ReplyRoute, outcome: InboundSettlement): void => {
    for (const key of routeKeys(route)) {
      const left = (unanswered.get(key) ?? 1) - 1;
      if (left > 0) {
        unanswered.set(key, left);
        continue;
      }
      unanswered.delete(key);
      deps.journal.settle(key, outcome);
    }
  };
  const submit = (route: ReplyRoute): void => {
    const store = deps.stores.forAgent(route.agentId);
    // An expired session restarts before this message counts as activity (a busy one: in its lane).
    if (queue.pending(route.sessionKey).phase === "idle")
      applySessionResetPolicy({
        store,
        sessionKey: route.sessionKey,
        session: deps.config().session,
      });
    const existing = store.getOrCreate(route.sessionKey).entry;
    store.update(route.sessionKey, inboundSessionPatch(route.inbound, existing, route.matchedBy));
    const settings = resolveQueueSettings({
      cfg: deps.config(),
      channel: route.inbound.channel,
      sessionOverride: queueOverrideFromSession(existing as unknown as Record<string, unknown>),
    });
    // A recovered turn is never joined with other messages: it answers exactly its prompt's.
    const routeKey = replyRouteKey(route.inbound);
    const inbound: ChannelMessage = {
      text: route.body,
      id: route.inbound.messageId,
      route: route.recovered ? `${routeKey}|run:${route.recovered.runId}` : routeKey,
      payload: route,
    };
    const images = inboundImages(route.inbound.media);
    if (images.length) inbound.images = images;
    queue.submit({ sessionKey: route.sessionKey, message: inbound, settings });
  };

  const deliver = (params: Omit<TurnReplyParams, "deps">) => deliverTurnReply({ deps, ...params });

  /** Settles every message a turn answered, except one whose sequential broadcast went on. */
  const settleTurn = (params: {
    answered: ChannelMessage[];
    outcome: InboundSettlement | undefined;
    chained: boolean;
  }) => {
    const { answered, outcome } = params;
    if (!outcome) return;
    const routes = answered.flatMap((m) => (m.payload ? [m.payload] : []));
    routes.forEach((route, index) => {
      const continues = params.chained && index === routes.length - 1 && route.rest.length > 0;
      if (!continues) settle(route, outcome);
    });
  };

  const logFailedTurn = (route: ReplyRoute, run: RunResult): void => {
    const { channel, accountId } = route.inbound;
    const { agentId, sessionKey } = route;
    deps.log.error(
      {
        channel,
        accountId,
        agentId,
        sessionKey,
        runId: run.runId,
        status: run.status,
        error: run.error,
      },
      "channel turn failed",
    );
  };

  const runTurn = async (queued: QueuedTurn<ReplyRoute>): Promise<RunResult> => {
    const route = queued.messages.at(-1)?.payload;
    // Every message this dispatcher submits carries its route: one without is a bug.
    if (!route) throw new Error(`channel turn ${queued.runId} has no reply route`);
    // Steering messages the run took are answered by it too.
    const answered = [...queued.messages];
    const turn: QueuedTurn<ReplyRoute> = {
      ...queued,
      drainSteering: () => {
        const drained = queued.drainSteering();
        answered.push(...drained);
        return drained;
      },
      // Drained for a run on a worker that did not take them: a follow-up turn answers them.
      restoreSteering: (back) => {
        for (const message of back) {
          const index = answered.indexOf(message);
          if (index >= 0) answered.splice(index, 1);
        }
        queued.restoreSteering(back);
      },
    };
    let outcome: InboundSettlement | undefined;
    let chained = false;
    try {
      const result = await runAndDeliver(turn, route, answered);
      chained = true;
      outcome = turnOutcome(result.run.status, result.report, paused);
      if (outcome === "run-failed") logFailedTurn(route, result.run);
      return result.run;
    } catch (err) {
      if (!paused) outcome = "run-failed";
      throw err;
    } finally {
      settleTurn({ answered, outcome, chained });
    }
  };

  /** Delivery promises shutdown waits for (replies and a verbose turn's tool messages). */
  const track = (delivering: Promise<DeliveryReport | undefined>) => {
    deliveries.add(delivering);
    const forget = () => deliveries.delete(delivering);
    delivering.then(forget, forget);
  };

  const runAndDeliver = async (
    turn: QueuedTurn<ReplyRoute>,
    route: ReplyRoute,
    answered: readonly ChannelMessage[],
  ): Promise<{ run: RunResult; report: DeliveryReport | undefined }> => {
    const { recovered: cut } = route;
    // A cut turn goes on under its old id (its prompt in the transcript carries it).
    const runId = cut?.runId ?? turn.runId;
    const { channel, accountId } = route.inbound;
    const feedback = startTurnFeedback({
      cfg: deps.config(),
      agentId: route.agentId,
      runtime: deps.accountRuntime(channel, accountId),
      target: replyTarget(route.inbound, false),
      config: deps.accountConfig(channel, accountId),
      capabilities: deps.capabilities(channel),
      log: deps.log,
    });
    const progress = turnToolProgress(deps, {
      ...route,
      sessionKey: turn.sessionKey,
      runId,
      track,
    });
    let result: RunResult;
    let previewId: string | undefined;
    try {
      const handle = await deps.startRun({
        ...queuedTurnRun(turn),
        runId,
        agentId: route.agentId,
        inboundKeys: answeredKeys(answered),
        // Resumed from its transcript; if a later turn ran on top of it, run again: answer it.
        ...(cut ? { recovery: { mode: "resume", stale: "rerun" } as const } : {}),
        onAbort: () => queue.cancel(turn.sessionKey, "aborted"),
        onEvent: (event) => {
          progress(event);
          feedback.onEvent(event);
        },
      });
      result = await handle.result;
    } finally {
      previewId = await feedback.stop();
    }
    // Registered before its first await, so a shutdown that saw the run end also waits for this.
    const delivering = deliver({ route, result, sessionKey: turn.sessionKey, answered, previewId });
    track(delivering);
    const report = await delivering;
    const [next, ...rest] = route.rest;
    if (next) submit({ ...route, ...next, rest });
    return { run: result, report };
  };

  const queue = createInboundQueue<ReplyRoute>({
    scheduler: deps.lanes,
    runTurn,
    onEvent: (event) => {
      if (event.type === "message_dropped") {
        const reply = event.message.payload;
        // A shutdown's cancel leaves the message unsettled: it is answered after the restart.
        if (reply && !(paused && event.reason === "cancelled")) settle(reply, "dropped");
        deps.log.warn(
          { sessionKey: event.sessionKey, reason: event.reason, summarized: event.summarized },
          "queued channel message dropped",
        );
      } else if (event.type === "turn_failed") {
        deps.log.error(
          { sessionKey: event.sessionKey, runId: event.runId, error: String(event.error) },
          "channel turn failed",
        );
      }
    },
  });

  return {
    queue,
    deliveriesSettled: async () => {
      await Promise.allSettled([...deliveries]);
    },
    pause() {
      paused = true;
    },
    dispatch({ message, body, routed, replay }) {
      const { raw: _raw, ...inbound } = message;
      const base = {
        inbound,
        body,
        ...(routed.broadcast ? {} : { matchedBy: routed.route.matchedBy }),
      };
      const key = inboundDedupeKey(inbound);
      // A replayed message whose turn's prompt landed before the crash goes on as that turn.
      const place = (route: ReplyRoute) => {
        const plan = replay ? recovery.plan(route) : { kind: "new" as const };
        if (plan.kind !== "answered") submit(plan.kind === "requeue" ? plan.route : route);
      };
      // A reply recorded before a restart answers its agent for good: sent, queued or reported.
      const covered = deps.deliveries.covered(key);
      const targets = routed.targets.filter(
        (t) => !covered.some((c) => c.agentId === t.agentId && c.sessionKey === t.sessionKey),
      );
      if (targets.length === 0) {
        deps.log.info({ key, deliveries: covered.length }, "inbound message already answered");
        deps.journal.settle(key, coveredOutcome(covered));
        return;
      }
      if (routed.strategy === "sequential" && targets.length > 1) {
        const [first, ...rest] = targets;
        place({ ...base, ...first!, rest });
        return;
      }
      if (targets.length > 1) unanswered.set(key, targets.length);
      for (const target of targets) place({ ...base, ...target, rest: [] });
    },
  };
}
