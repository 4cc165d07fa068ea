import { observeInbound, withMessageHooks } from "../plugins/index.js";
import {
  accountFingerprint,
  channelSection,
  isAccountEnabled,
  resolveAccountConfig,
} from "./account-config.js";
import {
  type AccountStatusSnapshot,
  initialAccountStatus,
  mergeAccountReport,
} from "./account-status.js";
import { type AccountSupervisor, superviseAccount } from "./account-supervisor.js";
import { createChannelCommands } from "./commands/channel-commands.js";
import { systemDeliveryClock } from "./delivery/delivery-clock.js";
import { createChannelDispatcher } from "./dispatch.js";
import { listDesiredAccounts } from "./host-accounts.js";
import { createHostDeliveries } from "./host-deliveries.js";
import { buildChannelsStatus } from "./host-status.js";
import type { ChannelHost, ChannelHostParams } from "./host-types.js";
import { type AccountWebhooks, createAccountWebhooks } from "./host-webhooks.js";
import { createGroupHistory } from "./inbound/group-history.js";
import { type InboundJournal, openInboundJournal } from "./inbound/inbound-journal.js";
import { createMentionPatternCompiler } from "./inbound/mention-gate.js";
import {
  type InboundOutcome,
  type InboundPipelineDeps,
  pairingReplyText,
  processInbound,
} from "./inbound/pipeline.js";
import { createInboundDedupe } from "./inbound/redelivery-filter.js";
import { createThreadStarts } from "./inbound/thread-start.js";
import { createPairingStore } from "./pairing/pairing-store.js";
import { sendDirect } from "./send-direct.js";
import type {
  ChannelAccountConfig,
  ChannelAccountRuntime,
  ChannelAdapter,
  ChannelCommandMenu,
  ChannelInbound,
} from "./types.js";

export type { ChannelsStatus } from "./host-status.js";
export type { ChannelHost, ChannelHostParams, DeliveryFailuresControl } from "./host-types.js";

interface AccountSlot {
  channel: string;
  accountId: string;
  fingerprint: string;
  status: AccountStatusSnapshot;
  runtime?: ChannelAccountRuntime;
  supervisor?: AccountSupervisor;
  controller: AbortController;
  webhooks: AccountWebhooks;
}

const slotKey = (channel: string, accountId: string) => `${channel}\u0000${accountId}`;

/** Creates the host (nothing starts before `start`). */
export function createChannelHost(params: ChannelHostParams): ChannelHost {
  const now = params.now ?? Date.now;
  const timing = params.timing ?? {};
  const slots = new Map<string, AccountSlot>();
  /** Accounts a login holds: not started (by start, a reload or a restart) until released. */
  const held = new Set<string>();
  const pairing = params.pairing ?? createPairingStore({ stateDir: params.stateDir, now });
  const accountConfig = (channel: string, accountId: string) =>
    resolveAccountConfig(channelSection(params.config(), channel), accountId);
  const slotOf = (channel: string, accountId: string) => slots.get(slotKey(channel, accountId));
  const hostDeliveries = createHostDeliveries({
    stateDir: params.stateDir,
    log: params.log,
    emit: params.emit,
    clock: timing.deliveryClock ?? { now, sleep: systemDeliveryClock.sleep },
    runtimeFor: (channel, accountId) => slotOf(channel, accountId)?.runtime,
    accountConfig,
    ...(timing.retry ? { retry: timing.retry } : {}),
    onSent: (channel, message) => {
      const slot = slotOf(channel, message.target.accountId);
      if (slot) slot.status.lastOutboundAt = now();
      params.hooks?.sent({
        channel,
        accountId: message.target.accountId,
        to: message.target.peer.id,
        text: message.text ?? "",
      });
    },
    onFailed: (record) => {
      const slot = slotOf(record.channel, record.accountId);
      const what = record.uncertain ? "delivery outcome unknown" : "delivery failed";
      if (slot) mergeAccountReport(slot.status, { lastError: `${what}: ${record.error}` }, now());
    },
  });
  const deliveries = withMessageHooks(hostDeliveries, params.plugins);
  // Opened by `start` (which also seeds the dedupe from it), closed by `stop`.
  let journal: InboundJournal | undefined;
  const journalWriter: InboundPipelineDeps["journal"] = {
    accept: (key, inbound) => {
      if (!journal) throw new Error("channel host is not started: inbound journal closed");
      journal.accept(key, inbound);
    },
    settle: (key, outcome) => journal?.settle(key, outcome),
  };
  const dispatcher = createChannelDispatcher({
    config: params.config,
    stores: params.stores,
    lanes: params.lanes,
    runtimeDeps: params.runtimeDeps,
    startRun: params.startRun,
    accountRuntime: (channel, accountId) => slotOf(channel, accountId)?.runtime,
    capabilities: (channel) => params.registry.get(channel)?.capabilities,
    accountConfig,
    deliveries,
    journal: journalWriter,
    log: params.log,
    onDeliveryState: (channel, accountId, delta) => {
      const slot = slotOf(channel, accountId);
      if (slot) slot.status.pendingDeliveries += delta;
    },
  });
  const commands = params.commands
    ? createChannelCommands({
        commands: params.commands,
        config: params.config,
        accountConfig,
        approved: (channel, accountId) => pairing.allowFrom(channel, accountId),
        capabilities: (channel) => params.registry.get(channel)?.capabilities,
        deliveries,
        journal: journalWriter,
        dispatch: dispatcher.dispatch,
        log: params.log,
      })
    : undefined;
  const pipelineDeps: InboundPipelineDeps = {
    config: params.config,
    accountConfig,
    dedupe: createInboundDedupe({ now }),
    journal: journalWriter,
    history: createGroupHistory(),
    mentionPatterns: createMentionPatternCompiler(),
    pairing,
    dispatch: dispatcher.dispatch,
    ...(commands ? { command: commands.take } : {}),
    ...(params.plugins ? { onReceived: observeInbound.bind(null, params.plugins) } : {}),
    loadTranscripts: async (targets) => {
      for (const { agentId, sessionKey } of targets)
        await params.stores.forAgent(agentId).readTranscriptAsync(sessionKey);
    },
    startThread: createThreadStarts({
      stores: params.stores,
      runtime: (channel, accountId) => slotOf(channel, accountId)?.runtime,
      log: params.log,
    }).start,
    log: params.log,
    replyPairing: async (message: ChannelInbound, code: string) => {
      if (!slotOf(message.channel, message.accountId)?.runtime) return;
      await deliveries.deliver({
        channel: message.channel,
        accountId: message.accountId,
        messages: [
          {
            target: { accountId: message.accountId, peer: message.peer },
            text: pairingReplyText(message, code),
          },
        ],
      });
    },
  };

  const receive = async (message: ChannelInbound): Promise<InboundOutcome> => {
    const slot = slotOf(message.channel, message.accountId);
    if (slot) slot.status.lastInboundAt = now();
    const outcome = await processInbound(pipelineDeps, message);
    if (outcome.status === "dispatched" || outcome.status === "command")
      params.hooks?.received({
        ...message,
        senderId: message.sender.id,
        conversationId: message.peer.id,
        sessionKey: outcome.routed.targets[0]?.sessionKey,
      });
    if (outcome.status === "dropped") {
      params.log.info(
        { channel: message.channel, accountId: message.accountId, reason: outcome.reason },
        "inbound message dropped",
      );
    }
    return outcome;
  };

  /** Re-submits what the journal accepted but never settled, once its account runs again. */
  const replayJournal = async (
    opened: InboundJournal,
    pending: ReturnType<InboundJournal["pending"]>,
  ): Promise<void> => {
    for (const { key, inbound } of pending) {
      const fields = { channel: inbound.channel, accountId: inbound.accountId, key };
      const slot = slotOf(inbound.channel, inbound.accountId);
      if (!slot?.status.enabled || !slot.status.configured) {
        params.log.warn(
          fields,
          "journaled inbound message dropped: its account is gone or disabled",
        );
        opened.settle(key, "dropped");
        continue;
      }
      if (!slot.runtime) {
        params.log.warn(fields, "journaled inbound message kept: its account did not start");
        continue;
      }
      try {
        await processInbound(pipelineDeps, inbound, { replay: true });
      } catch (err) {
        params.log.error({ ...fields, error: String(err) }, "journaled inbound message failed");
      }
    }
  };

  const startAccount = async (adapter: ChannelAdapter, accountId: string): Promise<void> => {
    const channel = adapter.id;
    const config = accountConfig(channel, accountId);
    const enabled = isAccountEnabled(channelSection(params.config(), channel), accountId);
    const problem = enabled ? adapter.validateAccount(config, params.env) : undefined;
    const slot: AccountSlot = {
      channel,
      accountId,
      fingerprint: accountFingerprint(config),
      status: initialAccountStatus({
        accountId,
        enabled,
        configured: !problem,
        ...(problem ? { lastError: problem } : {}),
        at: now(),
      }),
      controller: new AbortController(),
      webhooks: createAccountWebhooks(params.webhooks, `${channel}/${accountId}`),
    };
    slots.set(slotKey(channel, accountId), slot);
    if (!enabled || problem) return;
    const accountLog = params.log.child({ channel, accountId });
    const report = (update: Parameters<typeof mergeAccountReport>[1]) =>
      mergeAccountReport(slot.status, update, now());
    slot.supervisor = superviseAccount({
      start: () =>
        adapter.start({
          channel,
          accountId,
          config,
          stateDir: params.stateDir,
          env: params.env,
          log: accountLog,
          receive: async (message) => {
            await receive({ ...message, channel, accountId });
          },
          syncInbound: () => journal?.sync(),
          report,
          registerWebhook: (route) => slot.webhooks.register(route),
          reportDelivery: (update) => deliveries.reportPlatformStatus(channel, accountId, update),
          signal: slot.controller.signal,
          ...(params.commands
            ? { commandMenu: accountMenu(params.commands.menu(params.config()), config) }
            : {}),
        }),
      signal: slot.controller.signal,
      log: accountLog,
      now,
      onRuntime: (runtime) => {
        slot.runtime = runtime;
        if (runtime) deliveries.resume(channel, accountId);
      },
      report,
      ...(timing.restart ? { policy: timing.restart } : {}),
    });
    await slot.supervisor.start();
  };

  const stopSlot = async (slot: AccountSlot): Promise<void> => {
    slots.delete(slotKey(slot.channel, slot.accountId));
    slot.controller.abort();
    await slot.supervisor?.stop();
    slot.webhooks.releaseAll();
    slot.status.running = false;
  };

  /** Desired accounts now: adapter + account ids of every configured channel with an adapter. */
  const desired = async () =>
    (
      await listDesiredAccounts({
        cfg: params.config(),
        registry: params.registry,
        accountConfig,
        log: params.log,
      })
    ).filter((item) => !held.has(slotKey(item.adapter.id, item.accountId)));

  let chain: Promise<void> = Promise.resolve();
  const serialize = (work: () => Promise<void>) => {
    chain = chain.then(work, work);
    return chain;
  };

  return {
    pairing,
    receive,
    cancelQueued: (sessionKey) => dispatcher.queue.cancel(sessionKey, "aborted"),
    holdAccount: (channel, accountId) =>
      serialize(async () => {
        held.add(slotKey(channel, accountId));
        const slot = slotOf(channel, accountId);
        if (slot) await stopSlot(slot);
      }),
    async releaseAccount(channel, accountId) {
      let started = false;
      await serialize(async () => {
        held.delete(slotKey(channel, accountId));
        const slot = slotOf(channel, accountId);
        if (slot) await stopSlot(slot);
        const item = (await desired()).find(
          (d) => d.adapter.id === channel && d.accountId === accountId,
        );
        if (item) await startAccount(item.adapter, item.accountId);
        started = item !== undefined;
      });
      return started;
    },
    start: () =>
      serialize(async () => {
        const opened = journal
          ? undefined
          : openInboundJournal({ stateDir: params.stateDir, log: params.log, now });
        if (opened) {
          journal = opened;
          pipelineDeps.dedupe = createInboundDedupe({ now, seed: opened.keys() });
        }
        // What a previous run left unsettled, taken before any account starts: a message accepted
        // while the accounts start is this run's own, never replayed.
        const pending = opened ? opened.pending() : [];
        deliveries.open();
        const wanted = await desired();
        await Promise.all(wanted.map((item) => startAccount(item.adapter, item.accountId)));
        // After the accounts exist, so their status shows what a crash left uncertain.
        deliveries.reportInterrupted();
        if (opened) await replayJournal(opened, pending);
      }),
    applyConfig: () =>
      serialize(async () => {
        const wanted = await desired();
        const keep = new Set<string>();
        for (const item of wanted) {
          const slot = slotOf(item.adapter.id, item.accountId);
          if (slot && slot.fingerprint === item.fingerprint)
            keep.add(slotKey(item.adapter.id, item.accountId));
        }
        const stale = [...slots.entries()]
          .filter(([key]) => !keep.has(key))
          .map(([, slot]) => slot);
        await Promise.all(stale.map(stopSlot));
        const fresh = wanted.filter((item) => !keep.has(slotKey(item.adapter.id, item.accountId)));
        await Promise.all(fresh.map((item) => startAccount(item.adapter, item.accountId)));
      }),
    pauseInbound() {
      dispatcher.pause();
      for (const slot of slots.values()) slot.controller.abort();
    },
    stop: () =>
      serialize(async () => {
        dispatcher.pause();
        for (const slot of slots.values()) slot.controller.abort();
        await commands?.settled();
        await dispatcher.deliveriesSettled();
        // Retry waits end here (those parts stay queued for the next start); sends in flight finish.
        await deliveries.stop();
        await Promise.all([...slots.values()].map(stopSlot));
        journal?.close();
        journal = undefined;
      }),
    status: (options = {}) =>
      buildChannelsStatus({
        slots: slots.values(),
        labelOf: (channel) => params.registry.get(channel)?.label,
        deliveries,
        now: now(),
        probe: options.probe === true,
      }),
    send: (request) =>
      sendDirect({
        request,
        config: params.config(),
        accountRuntime: (channel, accountId) => slotOf(channel, accountId)?.runtime,
        runningAccounts: (channel) =>
          [...slots.values()]
            .filter((s) => s.channel === channel && s.runtime)
            .map((s) => s.accountId),
        capabilities: (channel) => params.registry.get(channel)?.capabilities,
        deliveries,
        statePaths: async () => (await params.runtimeDeps()).paths,
        log: params.log,
      }),
    failures: {
      list: () => deliveries.entries(),
      retry: (selector) => deliveries.retry(selector),
      drop: (selector) => deliveries.drop(selector),
    },
  };
}

/** The command menu for one account: its own `commands.native` (account over channel) wins over
 *  the top-level one. */
function accountMenu(menu: ChannelCommandMenu, config: ChannelAccountConfig): ChannelCommandMenu {
  const own = (config.commands as { native?: unknown } | undefined)?.native;
  return own === true || own === false || own === "auto" ? { ...menu, native: own } : menu;
}
