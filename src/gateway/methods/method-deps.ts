// The dependencies method handlers are given: flat fields over the gateway core, so a handler reads
// `deps.stores` rather than `core.runtime.stores`. Each method lists the fields it uses (`uses` in
// defineMethod) and is handed only those (bindMethods in method-table.ts).
import type { ResolvedConfig } from "../../config/index.js";
import type { LiveConfig } from "../../config/live-config.js";
import type { CronService } from "../../cron/service.js";
import type { Logger } from "../../lib/logger.js";
import type { PluginRecord } from "../../plugins/index.js";
import type { ExecApprovalHub } from "../approvals/exec-approval-hub.js";
import type { GatewayChannels } from "../channels.js";
import type { GatewayCore } from "../core.js";
import type { LiveDevices } from "../devices/live-devices.js";
import type { EmitEvent, EventSubscriptions } from "../events/event-fanout.js";
import { buildHealth } from "../health.js";
import type { HeartbeatScheduler } from "../heartbeat/scheduler.js";
import type { DedupeCache } from "../idempotency-cache.js";
import {
  type ConfigWriteOutcome,
  type ConfigWriteParams,
  patchConfig,
  writeWholeConfig,
} from "../live-config/config-writes.js";
import type { LogRing } from "../logging/log-ring.js";
import type { NodeRegistry } from "../nodes/node-registry.js";
import type { PresenceTable } from "../presence.js";
import type { ClusterRunsStatus } from "../runs/cluster-runs.js";
import type { RunResources } from "../runs/run-resources.js";
import type { RunTracker } from "../runs/run-tracker.js";
import {
  type StartedTurn,
  startJournaledTurn,
  type TurnToJournal,
} from "../runs/turn-journal-run.js";
import type { MethodResult } from "./method.js";

/** What `status` reports about the gateway process itself. */
export interface GatewayInfo {
  version: string;
  bootId: string;
  startedAt: number;
  authMode: () => string;
  connectionCount: () => number;
  /** The plugins found at start and their status. */
  plugins: readonly PluginRecord[];
  /** The run queue's status (depth per partition, workers) when runs go to workers. */
  cluster: () => Promise<ClusterRunsStatus | undefined>;
}

/** Everything a method handler may use; each method is given the fields it lists. */
export interface MethodDeps {
  now: () => number;
  /** The resolved config (read per call: a reload replaces it). */
  config: () => ResolvedConfig;
  /** The live config file: status, reload, inspection (config.*, status, channels.status). */
  live: LiveConfig;
  env: Record<string, string | undefined>;
  stateDir: string;
  gateway: GatewayInfo;
  /** The health summary (the `health` method and event). */
  health: () => ReturnType<typeof buildHealth>;
  stores: RunResources["stores"];
  lanes: RunResources["lanes"];
  /** The usage log and budget ledger (usage.* methods). */
  usage: RunResources["usage"];
  compact: RunResources["compact"];
  runs: RunTracker;
  /** Journals a WS turn (fsynced before the ack), then starts it (turn-journal-run.ts). */
  startTurn: (
    turn: TurnToJournal,
  ) => Promise<{ ok: true; turn: StartedTurn } | { ok: false; error: MethodResult }>;
  dedupe: DedupeCache<Record<string, unknown>, Record<string, unknown>>;
  /** Config writes under the write lock (live-config/config-writes.ts). */
  configWrites: {
    whole: (params: ConfigWriteParams) => Promise<ConfigWriteOutcome>;
    patch: (params: ConfigWriteParams) => Promise<ConfigWriteOutcome>;
  };
  channels: GatewayChannels;
  presence: PresenceTable;
  /** Schedules one coalesced `presence` event. */
  presenceChanged: () => void;
  logs: LogRing;
  logger: Logger;
  /** Sends an event to every ready connection that wants it. */
  broadcast: EmitEvent;
  /** Who subscribed to the subscription-only events (`sessions.subscribe`). */
  subscriptions: EventSubscriptions;
  heartbeats: HeartbeatScheduler;
  /** The cron scheduler (the `cron.*` methods). */
  cron: CronService;
  /** The pairing store, live connections per device (the device.* methods). */
  devices: LiveDevices;
  /** Pending exec approvals and the approvals file (the exec.approval.* methods). */
  approvals: ExecApprovalHub;
  /** Connected node hosts and their in-flight invokes (the node.* methods). */
  nodes: NodeRegistry;
}

/** The method dependencies over one gateway core, its heartbeat scheduler and its cron service. */
export function createMethodDeps(params: {
  core: GatewayCore;
  heartbeats: HeartbeatScheduler;
  cron: CronService;
}): MethodDeps {
  const { core, heartbeats, cron } = params;
  const { runtime } = core;
  return {
    now: core.now,
    config: () => core.live.resolved,
    live: core.live,
    env: core.env,
    stateDir: core.paths.stateDir,
    gateway: {
      version: core.version,
      bootId: core.bootId,
      startedAt: core.startedAt,
      authMode: () => core.authMode,
      connectionCount: core.connectionCount,
      plugins: core.plugins,
      cluster: async () => runtime.cluster?.status(),
    },
    health: () => buildHealth(core),
    stores: runtime.stores,
    lanes: runtime.lanes,
    usage: runtime.usage,
    compact: (target) => runtime.compact(target),
    runs: core.runs,
    startTurn: (turn) => startJournaledTurn(core, turn),
    dedupe: core.dedupe,
    configWrites: {
      whole: (write) => writeWholeConfig(core, write),
      patch: (write) => patchConfig(core, write),
    },
    channels: core.channels,
    presence: core.presence,
    presenceChanged: core.presenceChanged,
    logs: core.logs,
    logger: core.logger,
    broadcast: core.broadcast,
    subscriptions: core.subscriptions,
    heartbeats,
    cron,
    devices: core.devices,
    approvals: core.approvals,
    nodes: core.nodes,
  };
}
