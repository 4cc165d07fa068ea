// Wires the cron service to the gateway: the store under the state dir (or `cron.store`), turns
// through the gateway's run tracker (clients see the usual agent/chat events, the turn lands in the
// transcript), replies sent through the channel host, every job change and run broadcast as a `cron`
// event. Created once by startGateway; `start()` once listening, `reschedule()` on a config reload,
// `close()` on shutdown.
import { randomUUID } from "node:crypto";
import type { GatewayCore } from "../gateway/core.js";
import type { SystemEventQueue } from "../gateway/system-events.js";
import { createCronExecutor } from "./executor.js";
import { pgCronStorage } from "./pg-store.js";
import { CronService, type CronTimers } from "./service.js";
import { cronSettings } from "./settings.js";
import { cronPaths } from "./store.js";

/** The parts of the gateway core cron uses. */
type CronCore = Pick<
  GatewayCore,
  "live" | "env" | "paths" | "now" | "logger" | "runs" | "runtime" | "channels" | "broadcast"
>;

/** Inputs of {@link createGatewayCron}. */
export interface GatewayCronOptions {
  core: CronCore;
  /** Shared with the heartbeats: main-session events wait there for the next beat. */
  systemEvents: SystemEventQueue;
  timers?: CronTimers;
}

/** The gateway's cron service (not started). */
export function createGatewayCron(options: GatewayCronOptions): CronService {
  const { core } = options;
  const logger = core.logger.child({ subsystem: "cron" });
  const paths = cronPaths({
    stateDir: core.paths.stateDir,
    store: core.live.config.cron?.store,
  });
  const execute = createCronExecutor({
    config: () => core.live.resolved,
    env: core.env,
    stores: core.runtime.stores,
    systemEvents: options.systemEvents,
    logger,
    now: core.now,
    runTurn: async (turn) => {
      const run = await core.runs.start(turn);
      const result = await run.result;
      return {
        status: result.status,
        text: result.payloads.map((payload) => payload.text).join("\n\n"),
        ...(result.error ? { error: result.error } : {}),
        ...(result.model ? { model: result.model } : {}),
        ...(result.provider ? { provider: result.provider } : {}),
      };
    },
    send: async (target, text) => {
      const host = core.channels.host;
      if (!host) return { ok: false, error: "no chat channel is running" };
      const sent = await host.send({ ...target, message: text });
      return sent.ok ? { ok: true } : { ok: false, error: sent.error };
    },
  });
  // Sessions in PostgreSQL (cluster.store): the jobs too (read when the service starts).
  const pg = core.live.config.cluster?.store?.kind === "postgres";
  return new CronService({
    paths,
    ...(pg
      ? { storage: pgCronStorage({ backend: () => core.runtime.stores.postgres, logger }) }
      : {}),
    now: core.now,
    settings: () => cronSettings(core.live.config, core.env),
    execute,
    emit: (event) => core.broadcast("cron", event),
    logger,
    newId: randomUUID,
    ...(options.timers ? { timers: options.timers } : {}),
  });
}
