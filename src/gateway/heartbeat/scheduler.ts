// The heartbeat scheduler: one timer per agent with a heartbeat (`every` > 0). Each beat runs the
// heartbeat prompt as a turn in the agent's main session, classifies the reply (HEARTBEAT_OK ack is
// suppressed; anything else goes to the injected `deliver`), and emits a `heartbeat` event. Beats
// are skipped outside activeHours, while the session is busy (retried sooner) or when HEARTBEAT.md
// is effectively empty. Clock and timers are injected; a config reload reschedules.
import type { ResolvedConfig } from "../../config/index.js";
import type { Logger } from "../../lib/logger.js";
import {
  classifyHeartbeatReply,
  type HeartbeatPlan,
  isEffectivelyEmptyHeartbeatFile,
  isWithinActiveHours,
  resolveHeartbeatPlans,
} from "./settings.js";

/** Payload of the `heartbeat` event (and of `last-heartbeat`). */
export interface HeartbeatEvent {
  ts: number;
  agentId: string;
  status: "sent" | "ok-token" | "skipped" | "failed";
  preview?: string;
  durationMs: number;
  reason?: string;
}

/** The outcome of one heartbeat turn. */
export interface HeartbeatTurnResult {
  ok: boolean;
  text: string;
  error?: string;
}

/** Timer functions (the real ones by default; tests pass a manual clock). */
export interface HeartbeatTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Inputs of {@link HeartbeatScheduler}. */
export interface HeartbeatSchedulerParams {
  config: () => ResolvedConfig;
  now: () => number;
  runTurn: (turn: {
    agentId: string;
    sessionKey: string;
    message: string;
  }) => Promise<HeartbeatTurnResult>;
  /** Whether a run is live in this session (the beat is skipped and retried). */
  isBusy: (sessionKey: string) => boolean;
  /** Whether system events wait for the session (then an empty HEARTBEAT.md does not skip the beat). */
  hasSystemEvents?: (sessionKey: string) => boolean;
  /** HEARTBEAT.md of the agent's workspace, undefined when missing. */
  readHeartbeatFile?: (agentId: string) => string | undefined;
  /** Sends a non-OK reply to the plan's channel; default: none (the reply stays in the transcript). */
  deliver?: (plan: HeartbeatPlan, text: string) => Promise<void>;
  emit: (event: HeartbeatEvent) => void;
  logger: Logger;
  timers?: HeartbeatTimers;
}

const BUSY_RETRY_MS = 30_000;
const PREVIEW_CHARS = 200;
const realTimers: HeartbeatTimers = {
  set: (callback, ms) => setTimeout(callback, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Schedules and runs the agents' heartbeats. */
export class HeartbeatScheduler {
  private readonly timers: HeartbeatTimers;
  private readonly scheduled = new Map<string, { handle: unknown; plan: HeartbeatPlan }>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private lastEvent: HeartbeatEvent | undefined;
  private on = true;
  private closed = false;

  constructor(private readonly params: HeartbeatSchedulerParams) {
    this.timers = params.timers ?? realTimers;
  }

  /** Whether heartbeats are enabled (set-heartbeats). */
  get enabled(): boolean {
    return this.on;
  }

  /** The last heartbeat event, if any. */
  last(): HeartbeatEvent | undefined {
    return this.lastEvent;
  }

  /** (Re)plans every agent from the current config; unchanged intervals keep their next beat. */
  reschedule(): void {
    if (this.closed) return;
    const { plans, problems } = resolveHeartbeatPlans(this.params.config());
    for (const problem of problems) this.params.logger.warn(`heartbeat: ${problem}`);
    const wanted = new Map(plans.map((plan) => [plan.agentId, plan]));
    for (const [agentId, entry] of this.scheduled) {
      const next = wanted.get(agentId);
      if (!this.on || !next || next.everyMs !== entry.plan.everyMs) {
        this.timers.clear(entry.handle);
        this.scheduled.delete(agentId);
      } else {
        entry.plan = next;
      }
    }
    if (!this.on) return;
    for (const plan of plans) {
      if (!this.scheduled.has(plan.agentId)) this.schedule(plan, plan.everyMs);
    }
  }

  /** Enables or disables every heartbeat. */
  setEnabled(enabled: boolean): void {
    this.on = enabled;
    this.reschedule();
  }

  /** Runs one agent's heartbeat now (what a timer does); resolves with the emitted event. */
  async beat(agentId: string): Promise<HeartbeatEvent | undefined> {
    const plan = resolveHeartbeatPlans(this.params.config()).plans.find(
      (p) => p.agentId === agentId,
    );
    if (!plan) return undefined;
    const run = this.runBeat(plan);
    this.inFlight.add(run);
    try {
      return await run;
    } finally {
      this.inFlight.delete(run);
    }
  }

  /** Stops every timer and waits for beats in flight. */
  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.scheduled.values()) this.timers.clear(entry.handle);
    this.scheduled.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(plan: HeartbeatPlan, delayMs: number): void {
    const handle = this.timers.set(() => {
      this.scheduled.delete(plan.agentId);
      this.beat(plan.agentId)
        .then((event) => {
          const current = resolveHeartbeatPlans(this.params.config()).plans;
          const next = current.find((p) => p.agentId === plan.agentId);
          if (!next || this.closed || !this.on || this.scheduled.has(plan.agentId)) return;
          const busy = event?.status === "skipped" && event.reason === "requests-in-flight";
          this.schedule(next, busy ? Math.min(BUSY_RETRY_MS, next.everyMs) : next.everyMs);
        })
        .catch((err: unknown) => {
          this.params.logger.error(
            { agentId: plan.agentId, error: String(err) },
            "heartbeat failed unexpectedly",
          );
        });
    }, delayMs);
    this.scheduled.set(plan.agentId, { handle, plan });
  }

  private async runBeat(plan: HeartbeatPlan): Promise<HeartbeatEvent> {
    const started = this.params.now();
    const finish = (fields: Omit<HeartbeatEvent, "ts" | "agentId" | "durationMs">) => {
      const event: HeartbeatEvent = {
        ts: this.params.now(),
        agentId: plan.agentId,
        ...fields,
        durationMs: this.params.now() - started,
      };
      this.lastEvent = event;
      this.params.emit(event);
      return event;
    };
    if (!isWithinActiveHours(plan, started))
      return finish({ status: "skipped", reason: "quiet-hours" });
    if (this.params.isBusy(plan.sessionKey)) {
      return finish({ status: "skipped", reason: "requests-in-flight" });
    }
    const file = this.params.readHeartbeatFile?.(plan.agentId);
    const events = this.params.hasSystemEvents?.(plan.sessionKey) === true;
    if (file !== undefined && isEffectivelyEmptyHeartbeatFile(file) && !events) {
      return finish({ status: "skipped", reason: "empty-heartbeat-file" });
    }
    const result = await this.params.runTurn({
      agentId: plan.agentId,
      sessionKey: plan.sessionKey,
      message: plan.prompt,
    });
    if (!result.ok) return finish({ status: "failed", reason: result.error ?? "run failed" });
    const reply = classifyHeartbeatReply(result.text, plan.ackMaxChars);
    if (reply.ack) return finish({ status: "ok-token" });
    if (reply.text === "") return finish({ status: "ok-token", reason: "empty-reply" });
    const preview = reply.text.slice(0, PREVIEW_CHARS);
    if (this.params.deliver) {
      try {
        await this.params.deliver(plan, reply.text);
      } catch (err) {
        this.params.logger.warn(
          { agentId: plan.agentId, error: String(err) },
          "heartbeat delivery failed",
        );
        return finish({ status: "failed", preview, reason: `delivery failed: ${String(err)}` });
      }
    }
    return finish({ status: "sent", preview });
  }
}
