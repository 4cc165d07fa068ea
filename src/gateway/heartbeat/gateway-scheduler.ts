// Wires the heartbeat scheduler to the gateway: beats run through the gateway's run tracker (so
// clients see the usual agent/chat events and the turn lands in the transcript), a session with a
// live run counts as busy, HEARTBEAT.md is read from the agent's workspace, and every outcome is
// broadcast as a `heartbeat` event.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { lookupAgent } from "../../config/index.js";
import type { GatewayCore } from "../core.js";
import { type SystemEventQueue, withSystemEvents } from "../system-events.js";
import { HeartbeatScheduler, type HeartbeatTimers } from "./scheduler.js";
import type { HeartbeatPlan } from "./settings.js";

/** The parts of the gateway core a heartbeat uses. */
type HeartbeatCore = Pick<GatewayCore, "live" | "now" | "logger" | "runs" | "broadcast">;

/** Inputs of {@link createGatewayHeartbeats}. */
export interface GatewayHeartbeatOptions {
  core: HeartbeatCore;
  deliver?: (plan: HeartbeatPlan, text: string) => Promise<void>;
  timers?: HeartbeatTimers;
  /** System events (cron wakeMode "next-heartbeat", webhook wakes) the next beat of a session reads
   *  above its prompt. */
  systemEvents?: SystemEventQueue;
}

function readHeartbeatFile(core: HeartbeatCore, agentId: string): string | undefined {
  const agent = lookupAgent(core.live.resolved, agentId);
  try {
    return readFileSync(join(agent.workspace, "HEARTBEAT.md"), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    core.logger.warn(
      { agentId, error: String(err) },
      "heartbeat: HEARTBEAT.md unreadable; beating anyway",
    );
    return undefined;
  }
}

/** The gateway's heartbeat scheduler (not started; call `reschedule()` once listening). */
export function createGatewayHeartbeats(options: GatewayHeartbeatOptions): HeartbeatScheduler {
  const { core } = options;
  return new HeartbeatScheduler({
    config: () => core.live.resolved,
    now: core.now,
    logger: core.logger,
    runTurn: async (turn) => {
      const events = options.systemEvents?.drain(turn.sessionKey) ?? [];
      const message = withSystemEvents(events, turn.message);
      const run = await core.runs.start({ runId: `heartbeat-${randomUUID()}`, ...turn, message });
      const result = await run.result;
      const text = result.payloads.map((payload) => payload.text).join("\n\n");
      return result.status === "ok"
        ? { ok: true, text }
        : { ok: false, text, error: result.error ?? result.status };
    },
    isBusy: (sessionKey) => core.runs.active().some((run) => run.sessionKey === sessionKey),
    hasSystemEvents: (sessionKey) => (options.systemEvents?.peek(sessionKey).length ?? 0) > 0,
    readHeartbeatFile: (agentId) => readHeartbeatFile(core, agentId),
    emit: (event) => core.broadcast("heartbeat", event),
    ...(options.deliver ? { deliver: options.deliver } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
  });
}
