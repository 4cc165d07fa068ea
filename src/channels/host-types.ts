// The channel host's contract: what the gateway passes in (`ChannelHostParams`) and what it gets
// back (`ChannelHost`), kept apart from the implementation in `host.ts`.

import type { GatewayHooks } from "../hooks/gateway-hooks.js";
import type { PluginHookRunner } from "../plugins/index.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import type { LaneScheduler } from "../runtime/lanes/index.js";
import type { AgentRuntimeDeps } from "../runtime/run/index.js";
import type { SessionStoreRegistry } from "../sessions/index.js";
import type { ChatCommands } from "./commands/service.js";
import type { DeliveryEntry, EntrySelector } from "./delivery/delivery-entries.js";
import type { EntryActionResult } from "./delivery/delivery-queue.js";
import type { StartChannelRun } from "./dispatch.js";
import type { ChannelsStatus } from "./host-status.js";
import type { ChannelHostTiming } from "./host-timing.js";
import type { ChannelWebhookServer } from "./host-webhooks.js";
import type { InboundOutcome } from "./inbound/pipeline.js";
import type { PairingStore } from "./pairing/pairing-store.js";
import type { ChannelRegistry } from "./registry.js";
import type { SendRequest, SendResponse } from "./send-direct.js";
import type { ChannelInbound, Logger } from "./types.js";

/** Everything the host needs; passed in by the gateway (or a test). */
export interface ChannelHostParams {
  registry: ChannelRegistry;
  config: () => OpenClawConfig;
  stateDir: string;
  env: Record<string, string | undefined>;
  log: Logger;
  stores: SessionStoreRegistry;
  /** The DM pairing store (default: the state dir's credentials files). */
  pairing?: PairingStore;
  lanes: LaneScheduler;
  runtimeDeps: () => Promise<AgentRuntimeDeps>;
  /** Starts a channel turn's run (the gateway's run start: events, chat.abort, drain). */
  startRun: StartChannelRun;
  emit: (event: string, payload: unknown) => void;
  /** The chat command service (`/status`, `/new`, …); without it every message goes to a run. */
  commands?: ChatCommands;
  now?: () => number;
  timing?: ChannelHostTiming;
  /** The gateway's HTTP webhook table; without it accounts cannot register webhooks. */
  webhooks?: ChannelWebhookServer;
  /** The plugins' hooks (`message_received`, `message_sending`, `message_sent`); absent: none. */
  plugins?: PluginHookRunner;
  /** Internal hooks told of accepted inbound messages and sent parts (`message:received/sent`). */
  hooks?: Pick<GatewayHooks, "received" | "sent">;
}

/** The dead letters and waiting parts of the delivery queue (`pincer channels failures`). */
export interface DeliveryFailuresControl {
  list(): DeliveryEntry[];
  retry(selector: EntrySelector): EntryActionResult;
  drop(selector: EntrySelector): EntryActionResult;
}

/** The running host. */
export interface ChannelHost {
  readonly pairing: PairingStore;
  /** Starts every enabled account; resolves when all have started or failed. */
  start(): Promise<void>;
  /** Applies a reloaded config: restarts only added, removed or changed accounts. */
  applyConfig(): Promise<void>;
  /** Ends inbound on every account (their signals abort) while replies can still be sent. */
  pauseInbound(): void;
  /** Waits for replies of finished runs to be delivered, then stops every account. */
  stop(): Promise<void>;
  status(options?: { probe?: boolean }): Promise<ChannelsStatus>;
  send(request: SendRequest): Promise<SendResponse>;
  /** Feeds one message through the pipeline (what accounts call through their context). */
  receive(message: ChannelInbound): Promise<InboundOutcome>;
  /** Drops what a session has queued and aborts its queued turn (`/stop`); the count dropped. */
  cancelQueued(sessionKey: string): number;
  /** Stops one account and keeps it stopped (a login holds its session) until `releaseAccount`. */
  holdAccount(channel: string, accountId: string): Promise<void>;
  /** Ends a hold and (re)starts the account when the config wants it; whether it started. */
  releaseAccount(channel: string, accountId: string): Promise<boolean>;
  readonly failures: DeliveryFailuresControl;
}
