// The gateway core: the shared state startGateway builds once (config, runtime, runs, presence,
// logs, broadcast) and connections, health, hello and the turn journal read. Method handlers do not
// see it: they get the narrow MethodDeps built from it (methods/method-deps.ts).
import type { StatePaths } from "../config/index.js";
import type { LiveConfig } from "../config/live-config.js";
import type { Logger } from "../lib/logger.js";
import type { PluginRecord } from "../plugins/index.js";
import type { ExecApprovalHub } from "./approvals/exec-approval-hub.js";
import type { GatewayChannels } from "./channels.js";
import type { LiveDevices } from "./devices/live-devices.js";
import type { EmitEvent, EventSubscriptions } from "./events/event-fanout.js";
import type { DedupeCache } from "./idempotency-cache.js";
import type { LogRing } from "./logging/log-ring.js";
import type { NodeRegistry } from "./nodes/node-registry.js";
import type { PresenceTable } from "./presence.js";
import type { RunResources } from "./runs/run-resources.js";
import type { RunTracker } from "./runs/run-tracker.js";
import type { TurnJournal } from "./runs/turn-journal.js";

/** Version counters sent with presence and health. */
export interface StateVersion {
  presence: number;
  health: number;
}

/** The gateway's shared state, built once by startGateway. */
export interface GatewayCore {
  version: string;
  bootId: string;
  startedAt: number;
  now: () => number;
  env: Record<string, string | undefined>;
  paths: StatePaths;
  authMode: string;
  live: LiveConfig;
  runtime: RunResources;
  runs: RunTracker;
  /** Chat channels (host created only once a channel with an adapter is configured). */
  channels: GatewayChannels;
  presence: PresenceTable;
  dedupe: DedupeCache<Record<string, unknown>, Record<string, unknown>>;
  /** WS turns journaled before their ack (resumed after a crash; outcomes for retries). */
  turns: TurnJournal;
  /** Resolves once the turns a restart resumes are in their lanes (new turns start after it). */
  turnsResumed: Promise<void>;
  logs: LogRing;
  logger: Logger;
  /** Sends an event to every ready connection that wants it (stateVersion for presence/health;
   *  subscription-only events to subscribers; droppable ones not to slow clients). */
  broadcast: EmitEvent;
  /** Who subscribed to the subscription-only events (`sessions.subscribe`). */
  subscriptions: EventSubscriptions;
  /** Schedules one coalesced `presence` event. */
  presenceChanged: () => void;
  stateVersion: () => StateVersion;
  connectionCount: () => number;
  /** Paired devices: the handshake's store and the device's live connections. */
  devices: LiveDevices;
  /** Pending exec approvals and the approvals file (exec.approval.*, /approve, the runs' gate). */
  approvals: ExecApprovalHub;
  /** Connected node hosts (`role: "node"`) and their in-flight invokes. */
  nodes: NodeRegistry;
  /** Names of every method served (hello-ok features.methods). */
  methodNames: () => string[];
  /** Every plugin found or named at start, with its status (`status` lists them). */
  plugins: readonly PluginRecord[];
}
