// What `startGateway` takes and returns: its options (every one but the config source has a
// default), the handle of a running gateway, and the error a config that cannot start raises.

import type { StreamFn } from "@mariozechner/pi-agent-core";
import type { LoadedConfig } from "../config/index.js";
import type { CronService } from "../cron/service.js";
import type { Logger } from "../lib/logger.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import type { GatewayChannelOptions } from "./channels.js";
import type { GatewayCore } from "./core.js";
import type { HeartbeatScheduler, HeartbeatTimers } from "./heartbeat/scheduler.js";
import type { HeartbeatPlan } from "./heartbeat/settings.js";
import type { DeviceAuthority, SharedAuth } from "./ws/handshake.js";

/** Options of {@link startGateway}; everything but the config source has a default. */
export interface StartGatewayOptions {
  env?: Record<string, string | undefined>;
  profile?: string;
  configPath?: string;
  /** A config already loaded (and valid); default: loaded from env/profile/configPath. */
  loaded?: LoadedConfig<OpenClawConfig>;
  /** Listen address (default 127.0.0.1). */
  host?: string;
  /** Listen port; 0 picks a free one (default gateway.port, else 18789). */
  port?: number;
  /** Shared-auth overrides (CLI flags) over OPENCLAW_GATEWAY_TOKEN and gateway.auth. */
  auth?: Partial<SharedAuth>;
  /** Where the gateway logs (every line also goes to the `logs.tail` ring); default silent. */
  logger?: Logger;
  deviceAuthority?: DeviceAuthority;
  /** Model transport override (tests). */
  streamFn?: StreamFn;
  bundledSkillsDir?: string;
  version?: string;
  /** Clock for presence, dedupe and timestamps (tests). */
  clock?: { now(): number };
  tickIntervalMs?: number;
  healthIntervalMs?: number;
  handshakeTimeoutMs?: number;
  /** How long an exec approval request waits for an answer before it is denied (default 120 s). */
  execApprovalTimeoutMs?: number;
  /** Watch the config files for live reload (default true). */
  watchConfig?: boolean;
  authRateLimit?: { max?: number; windowMs?: number };
  /** How long shutdown lets runs finish before aborting them (default 10 s). */
  drainTimeoutMs?: number;
  maxBufferedBytes?: number;
  /** Folder of the built Control UI, served at `/` or `gateway.controlUi.basePath` (default: the package's dist/ui). */
  uiDir?: string;
  /** Sends a non-OK heartbeat reply (default: to `heartbeat.target`, "last" = the session's channel). */
  deliverHeartbeat?: (plan: HeartbeatPlan, text: string) => Promise<void>;
  /** Timers of the heartbeat scheduler (tests). */
  heartbeatTimers?: HeartbeatTimers;
  /** Channel adapter loaders (lazy, per channel id) and delivery tuning. */
  channels?: GatewayChannelOptions;
  /** Called when a chat `/restart` asks for a restart (after its reply is out): the embedder closes
   *  this gateway and starts it again. Absent: `/restart` says the gateway cannot restart itself. */
  onRestartRequest?: (reason: string) => void;
}

/** A running gateway. */
export interface GatewayHandle {
  url: string;
  host: string;
  port: number;
  bootId: string;
  core: GatewayCore;
  /** The agents' heartbeat scheduler. */
  heartbeats: HeartbeatScheduler;
  /** The cron scheduler (jobs, runs, the `cron.*` methods). */
  cron: CronService;
  /** Ready connections now. */
  connectionCount(): number;
  /** Set when nothing configured auth and the state dir's generated token is in use. */
  tokenFile?: { path: string; created: boolean };
  /** Graceful shutdown; resolves when stores are flushed and the lock released. Idempotent. */
  close(reason?: string): Promise<void>;
}

/** Raised when the config cannot be used to start. */
export class GatewayConfigError extends Error {
  constructor(
    message: string,
    readonly loaded: LoadedConfig<OpenClawConfig>,
  ) {
    super(message);
    this.name = "GatewayConfigError";
  }
}
