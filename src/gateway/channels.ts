// The gateway's chat channels: the adapter registry (built-in and third-party loaders from the
// gateway options) and the channel host, created (lazily imported) only when `channels` configures
// a channel that has an adapter, so a channel-less gateway loads no channel code at start-up.
import { configuredChannelIds } from "../channels/account-config.js";
import type { RestartPolicy } from "../channels/account-supervisor.js";
import { builtinChannelLoaders } from "../channels/builtin.js";
import type { DeliveryClock } from "../channels/delivery/delivery-clock.js";
import type { RetryPolicy } from "../channels/delivery/send-retry.js";
import type { ChannelHost } from "../channels/host.js";
import {
  type ChannelAdapterLoader,
  type ChannelRegistry,
  createChannelRegistry,
} from "../channels/registry.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import type { GatewayLogger } from "./logger.js";
import type { RunTracker } from "./runs/run-tracker.js";
import type { GatewayRuntime } from "./runs/run-resources.js";

/** Channel options of startGateway. */
export interface GatewayChannelOptions {
  /** Lazy adapters by channel id (default: the built-in ones); an SDK loads only when its channel is
   *  configured. */
  loaders?: Record<string, ChannelAdapterLoader>;
  /** Delivery retry policy under the config's `channels.<id>.retry` (tests shorten the backoff). */
  retry?: Partial<RetryPolicy>;
  /** Clock of the delivery retry schedule (tests run minutes of backoff without waiting). */
  deliveryClock?: DeliveryClock;
  /** Typing indicator refresh override (default: the configured `typingIntervalSeconds`, else 6 s). */
  typingIntervalMs?: number;
  /** Backoff of accounts restarted after a failure (tests shorten it; default 1 s doubling to 5 min). */
  restart?: Partial<RestartPolicy>;
}

/** What the channels need from the gateway. */
export interface GatewayChannelsParams {
  options: GatewayChannelOptions;
  config: () => OpenClawConfig;
  stateDir: string;
  env: Record<string, string | undefined>;
  logger: GatewayLogger;
  runtime: GatewayRuntime;
  runs: () => RunTracker;
  emit: (event: string, payload: unknown) => void;
  now: () => number;
  /** Resolves once the WS turns a restart resumes are in their lanes: the host starts after that,
   *  so no channel message (replayed or new) runs before a turn that was ahead of it. */
  turnsResumed: () => Promise<void>;
}

/** Owns the registry and (once needed) the host. */
export class GatewayChannels {
  readonly registry: ChannelRegistry;
  private current: ChannelHost | undefined;
  private creating: Promise<ChannelHost> | undefined;

  constructor(private readonly params: GatewayChannelsParams) {
    this.registry = createChannelRegistry({
      loaders: params.options.loaders ?? builtinChannelLoaders(),
    });
  }

  /** The host, if channels are configured. */
  get host(): ChannelHost | undefined {
    return this.current;
  }

  /** Whether the config names a channel that has an adapter. */
  wanted(cfg: OpenClawConfig): boolean {
    return configuredChannelIds(cfg).some((id) => this.registry.has(id));
  }

  /** Creates and starts the host when needed, or applies a reloaded config to it. */
  async sync(): Promise<void> {
    if (this.current) return this.current.applyConfig();
    if (!this.wanted(this.params.config())) return;
    this.creating ??= this.create();
    await (await this.creating).start();
  }

  /** Ends inbound on every account (before runs drain at shutdown); replies can still go out. */
  pauseInbound(): void {
    this.current?.pauseInbound();
  }

  /** Stops every account once the replies of finished runs are delivered (after the drain). */
  async stop(): Promise<void> {
    const host = this.current ?? (await this.creating);
    await host?.stop();
  }

  private async create(): Promise<ChannelHost> {
    const { params } = this;
    await params.turnsResumed();
    const { createChannelHost } = await import("../channels/host.js");
    const log =
      (level: "info" | "warn" | "error") => (fields: Record<string, unknown>, message: string) =>
        params.logger[level](message, fields);
    const typing = params.options.typingIntervalMs;
    this.current = createChannelHost({
      registry: this.registry,
      config: params.config,
      stateDir: params.stateDir,
      env: params.env,
      log: { info: log("info"), warn: log("warn"), error: log("error") },
      stores: params.runtime.stores,
      lanes: params.runtime.lanes,
      runtimeDeps: () => params.runtime.deps(),
      emit: params.emit,
      now: params.now,
      onRun: (info) => params.runs().adopt(info),
      ...(params.options.retry ? { retry: params.options.retry } : {}),
      ...(params.options.restart ? { restart: params.options.restart } : {}),
      ...(params.options.deliveryClock ? { deliveryClock: params.options.deliveryClock } : {}),
      ...(typing ? { typingIntervalMs: typing } : {}),
    });
    return this.current;
  }
}
