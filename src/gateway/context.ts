// What connections and method handlers share: the gateway core (config, runtime, runs, presence,
// logs, broadcast) and the shapes of a method call and its result.
import type { StatePaths } from "../config/index.js";
import type { GatewayErrorShape } from "../protocol/gateway/index.js";
import type { GatewayChannels } from "./channels.js";
import type { LiveConfig } from "./config-live.js";
import type { DedupeCache } from "./dedupe.js";
import type { GatewayLogger, LogRing } from "./logger.js";
import type { PresenceTable } from "./presence.js";
import type { GatewayRuntime } from "./runs/run-resources.js";
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
  runtime: GatewayRuntime;
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
  logger: GatewayLogger;
  /** Sends an event to every ready connection (with stateVersion for presence/health). */
  broadcast: (event: string, payload: unknown) => void;
  /** Schedules one coalesced `presence` event. */
  presenceChanged: () => void;
  stateVersion: () => StateVersion;
  connectionCount: () => number;
  /** Names of every method served (hello-ok features.methods). */
  methodNames: () => string[];
}

/** Who is calling. */
export interface ClientInfo {
  connId: string;
  role: "operator" | "node";
  scopes: string[];
  clientId: string;
  mode: string;
  remoteAddress: string;
}

/** A method's outcome: a payload or an error value. */
export type MethodResult = { ok: true; payload: unknown } | { ok: false; error: GatewayErrorShape };

/** One validated request. */
export interface MethodCall<P = Record<string, unknown>> {
  method: string;
  params: P;
  client: ClientInfo;
  core: GatewayCore;
  /** Sends an intermediate response on the same request id (the `agent` ack). */
  ack: (payload: unknown) => void;
}

/** A method implementation; may throw (the dispatcher turns it into UNAVAILABLE). */
// biome-ignore lint/suspicious/noExplicitAny: each handler narrows its own validated params type.
export type MethodHandler = (call: MethodCall<any>) => Promise<MethodResult> | MethodResult;

/** Shorthand for a success. */
export function ok(payload: unknown): MethodResult {
  return { ok: true, payload };
}

/** Shorthand for a failure. */
export function fail(error: GatewayErrorShape): MethodResult {
  return { ok: false, error };
}
