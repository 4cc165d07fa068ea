// The gateway's chat channels: the adapter registry (built-in and third-party loaders from the
// gateway options) and the channel host, created (lazily imported) only when `channels` configures
// a channel that has an adapter, so a channel-less gateway loads no channel code at start-up.

import { configuredChannelIds } from "../channels/account-config.js";
import { builtinChannelLoaders } from "../channels/builtin.js";
import { type CommandEvents, createCommandEvents } from "../channels/commands/events.js";
import type { ChatCommands } from "../channels/commands/service.js";
import type { ChannelHost } from "../channels/host.js";
import type { ChannelHostTiming } from "../channels/host-timing.js";
import type { PairingAccess } from "../channels/pairing/pairing-access.js";
import type { PairingStore } from "../channels/pairing/pairing-store.js";
import {
  type ChannelAdapterLoader,
  type ChannelRegistry,
  createChannelRegistry,
} from "../channels/registry.js";
import type { GatewayHooks } from "../hooks/gateway-hooks.js";
import type { Logger } from "../lib/logger.js";
import type { PluginHost } from "../plugins/index.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import type { ExecApprovalQueue } from "../runtime/approvals/index.js";
import type { WebhookRoutes } from "./http/webhook-routes.js";
import type { RunResources } from "./runs/run-resources.js";
import type { RunTracker } from "./runs/run-tracker.js";

/** Channel options of startGateway. */
export interface GatewayChannelOptions {
  /** Lazy adapters by channel id (default: the built-in ones); an SDK loads only when its channel is
   *  configured. */
  loaders?: Record<string, ChannelAdapterLoader>;
  /** Delivery retry, delivery clock and account restart backoff, handed to the host as is (tests
   *  shorten or virtualize them). */
  timing?: ChannelHostTiming;
}

/** What the channels need from the gateway. */
export interface GatewayChannelsParams {
  options: GatewayChannelOptions;
  /** The HTTP port's webhook table: accounts register their platform webhooks here. */
  webhooks?: WebhookRoutes;
  config: () => OpenClawConfig;
  stateDir: string;
  env: Record<string, string | undefined>;
  logger: Logger;
  runtime: RunResources;
  /** The DM pairing store the host and the channels.pairing.* methods share. */
  pairing: PairingAccess;
  /** Starts and tracks every channel turn's run (the same tracker as the WS turns). */
  runs: RunTracker;
  /** Pending exec approvals (`/approve`). */
  approvals?: { queue: ExecApprovalQueue };
  emit: (event: string, payload: unknown) => void;
  now: () => number;
  /** Resolves once the WS turns a restart resumes are in their lanes: the host starts after that,
   *  so no channel message (replayed or new) runs before a turn that was ahead of it. */
  turnsResumed: () => Promise<void>;
  /** Asks the embedder to restart the gateway (`/restart`); absent: it cannot restart itself. */
  requestRestart?: (reason: string) => void;
  /** Why a restart would not come back up now (see CommandHost.restartRefusal). */
  restartRefusal?: () => string | undefined;
  /** The loaded plugins: their chat commands and message hooks. */
  plugins?: PluginHost;
  /** The gateway's internal hooks (command and message events). */
  hooks?: Pick<GatewayHooks, "command" | "received" | "sent">;
}

/** Owns the registry, the chat commands every surface shares and (once needed) the host. */
export class GatewayChannels {
  readonly registry: ChannelRegistry;
  /** Every handled chat command (channels and chat.send) is announced here. */
  readonly commandEvents: CommandEvents;
  private current: ChannelHost | undefined;
  private creating: Promise<ChannelHost> | undefined;
  private chatCommands: Promise<ChatCommands> | undefined;

  constructor(private readonly params: GatewayChannelsParams) {
    this.registry = createChannelRegistry({
      loaders: params.options.loaders ?? builtinChannelLoaders(),
    });
    this.commandEvents = createCommandEvents(params.logger);
  }

  /** The chat command service (loaded on first use: a gateway nobody sends a command to never
   *  loads it). */
  commands(): Promise<ChatCommands> {
    const { params } = this;
    this.chatCommands ??= import("../channels/commands/service.js").then(async (service) =>
      service.createChatCommands({
        ...(params.plugins?.registry.commands.length
          ? { registry: await pluginCommandRegistry(params.plugins, params.logger) }
          : {}),
        runtimeDeps: () => params.runtime.deps(),
        abortSession: (sessionKey) => this.abortSession(sessionKey),
        compact: (target) => params.runtime.compact(target),
        now: params.now,
        announce: (sessionKey, reason) =>
          params.emit("sessions.changed", { sessionKey, reason, ts: params.now() }),
        events: this.commandEvents,
        log: params.logger,
        ...(params.approvals ? { approvals: params.approvals.queue } : {}),
        ...(params.requestRestart ? { requestRestart: params.requestRestart } : {}),
        ...(params.restartRefusal ? { restartRefusal: params.restartRefusal } : {}),
        ...(params.hooks ? { commandHooks: params.hooks.command } : {}),
      }),
    );
    return this.chatCommands;
  }

  /** Ends a session's turns: drops what its channel queue holds (counted), then aborts its runs
   *  (WS and channel, running or waiting in the lane). */
  abortSession(sessionKey: string): { runs: number; dropped: number } {
    const dropped = this.current?.cancelQueued(sessionKey) ?? 0;
    return { runs: this.params.runs.abort(sessionKey).length, dropped };
  }

  /** The host, if channels are configured. */
  /** The DM pairing store (files, or PostgreSQL with cluster.store once the gateway opened it). */
  pairing(): PairingStore {
    return this.params.pairing.store();
  }

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
    // A login in progress has a session of its own open: it ends with the gateway.
    await Promise.all(this.registry.list().map((adapter) => adapter.login?.cancelAll()));
    const host = this.current ?? (await this.creating);
    await host?.stop();
  }

  private async create(): Promise<ChannelHost> {
    const { params } = this;
    await params.turnsResumed();
    const { createChannelHost } = await import("../channels/host.js");
    this.current = createChannelHost({
      registry: this.registry,
      config: params.config,
      stateDir: params.stateDir,
      env: params.env,
      log: params.logger,
      stores: params.runtime.stores,
      pairing: params.pairing.store(),
      lanes: params.runtime.lanes,
      runtimeDeps: () => params.runtime.deps(),
      emit: params.emit,
      commands: await this.commands(),
      now: params.now,
      startRun: (request) => params.runs.start(request),
      ...(params.webhooks ? { webhooks: params.webhooks } : {}),
      ...(params.hooks ? { hooks: params.hooks } : {}),
      ...(params.options.timing ? { timing: params.options.timing } : {}),
      ...(params.plugins ? { plugins: params.plugins.hooks } : {}),
    });
    return this.current;
  }
}

/** The chat command registry with the plugins' commands after the built-ins (clashes refused). */
async function pluginCommandRegistry(plugins: PluginHost, logger: Logger) {
  const [{ BUILTIN_COMMANDS }, { createCommandRegistry }, { pluginCommandDefinitions }] =
    await Promise.all([
      import("../channels/commands/service.js"),
      import("../channels/commands/registry.js"),
      import("../plugins/commands.js"),
    ]);
  const extra = pluginCommandDefinitions({
    registry: plugins.registry,
    builtin: BUILTIN_COMMANDS,
    logger,
  });
  return createCommandRegistry([...BUILTIN_COMMANDS, ...extra]);
}
