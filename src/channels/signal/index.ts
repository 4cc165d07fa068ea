// The Signal channel adapter, through signal-cli's HTTP daemon (JSON-RPC + server-sent events): one
// daemon per account, either one the user runs (`httpUrl`) or one Pincer starts and supervises
// (`autoStart`). Inbound from the event stream, replies by `send` with Signal text styles, typing
// by `sendTyping`, read receipts by `sendReceipt`, the probe by `/api/v1/check` + `version`. A
// started daemon that exits ends the account (`ended`): the host starts it again with backoff.
import type {
  ChannelAccountContext,
  ChannelAccountEnd,
  ChannelAccountRuntime,
  ChannelAdapter,
  ChannelInbound,
  OutboundTarget,
  ProbeResult,
} from "../index.js";
import { type SignalDaemon, startSignalDaemon } from "./daemon.js";
import { runSignalEvents } from "./events.js";
import { parseSignalMessageId } from "./inbound.js";
import { createSignalRpc, type SignalRpc } from "./rpc.js";
import { sendSignalMessage, signalDestination } from "./send.js";
import {
  listSignalAccounts,
  resolveSignalSettings,
  type SignalAccountSettings,
} from "./settings.js";

/** OpenClaw's default `textChunkLimit` for Signal. */
export const SIGNAL_TEXT_LIMIT = 4000;

async function probe(
  rpc: SignalRpc,
  settings: SignalAccountSettings,
  now: () => number,
): Promise<ProbeResult> {
  const started = now();
  try {
    const res = await fetch(`${settings.baseUrl}/api/v1/check`, {
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    await res.body?.cancel();
    if (!res.ok) return { ok: false, error: `signal-cli check answered HTTP ${res.status}` };
  } catch (err) {
    return {
      ok: false,
      error: `signal-cli daemon unreachable at ${settings.baseUrl}: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  const version = await rpc.call({ method: "version" });
  if (!version.ok) return { ok: false, error: version.failure.message };
  const v = (version.result as { version?: unknown } | undefined)?.version;
  return {
    ok: true,
    identity: {
      id: settings.account ?? settings.baseUrl,
      name: typeof v === "string" ? `signal-cli ${v}` : "signal-cli",
      ...(settings.account ? { username: settings.account } : {}),
    },
    latencyMs: Math.max(0, now() - started),
  };
}

/** Read receipts waiting for their DM's reply to start, per peer (newest 50 timestamps each). */
function createReceipts(rpc: SignalRpc, context: ChannelAccountContext) {
  const pending = new Map<string, number[]>();
  return {
    note(inbound: ChannelInbound) {
      const ts = parseSignalMessageId(inbound.messageId)?.timestamp;
      if (ts === undefined) return;
      const list = pending.get(inbound.peer.id) ?? [];
      list.push(ts);
      pending.set(inbound.peer.id, list.slice(-50));
    },
    async flush(target: OutboundTarget) {
      const list = target.peer.kind === "direct" ? pending.get(target.peer.id) : undefined;
      if (!list || list.length === 0) return;
      pending.delete(target.peer.id);
      const result = await rpc.call({
        method: "sendReceipt",
        params: { ...signalDestination(target), targetTimestamp: list, type: "read" },
      });
      if (!result.ok)
        context.log.warn({ error: result.failure.message }, "signal: read receipt not sent");
    },
  };
}

async function startAccount(
  context: ChannelAccountContext,
  now: () => number,
): Promise<ChannelAccountRuntime> {
  const resolved = resolveSignalSettings({ config: context.config, accountId: context.accountId });
  if (!resolved.ok) {
    context.report({ connected: false, lastError: resolved.error, lastErrorAt: now() });
    throw new Error(resolved.error);
  }
  const { settings } = resolved;
  const controller = new AbortController();
  const onHostAbort = () => controller.abort();
  if (context.signal.aborted) controller.abort();
  else context.signal.addEventListener("abort", onHostAbort, { once: true });
  let daemon: SignalDaemon | undefined;
  if (settings.daemon) {
    try {
      daemon = await startSignalDaemon({ settings, log: context.log, signal: controller.signal });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      context.report({ connected: false, lastError: error, lastErrorAt: now() });
      context.signal.removeEventListener("abort", onHostAbort);
      throw err;
    }
  }
  const rpc = createSignalRpc(settings);
  const receipts = createReceipts(rpc, context);
  const identity = settings.account
    ? { id: settings.account, username: settings.account }
    : undefined;
  if (identity) context.report({ identity });
  const loop = runSignalEvents({
    settings,
    rpc,
    context,
    signal: controller.signal,
    now,
    onDirect: (inbound) => {
      if (settings.sendReadReceipts) receipts.note(inbound);
    },
  });
  const daemonEnd: Promise<ChannelAccountEnd> = daemon
    ? daemon.exited.then((reason) =>
        controller.signal.aborted || reason === "stopped"
          ? { failed: false }
          : { failed: true, error: reason },
      )
    : new Promise(() => {});
  const ended: Promise<ChannelAccountEnd> = Promise.race([
    loop.then((): ChannelAccountEnd => ({ failed: false })),
    daemonEnd,
  ]).then((end) => {
    if (end.failed) {
      context.log.warn({ error: end.error }, "signal: daemon gone");
      context.report({ connected: false, lastError: end.error, lastErrorAt: now() });
    }
    return end;
  });
  return {
    ended,
    async send(message) {
      const result = await sendSignalMessage({
        rpc,
        message,
        mediaMaxBytes: settings.mediaMaxBytes,
        ...(settings.account ? { self: settings.account } : {}),
      });
      if (result.ok) context.report({ lastOutboundAt: now() });
      else context.log.warn({ ...result.failure }, "signal: send failed");
      return result;
    },
    async sendTyping(target) {
      if (settings.sendReadReceipts) await receipts.flush(target);
      const result = await rpc.call({ method: "sendTyping", params: signalDestination(target) });
      if (!result.ok)
        context.log.debug({ error: result.failure.message }, "signal: typing not sent");
    },
    probe: () => probe(rpc, settings, now),
    async stop() {
      controller.abort();
      context.signal.removeEventListener("abort", onHostAbort);
      await loop;
      await daemon?.stop();
      context.report({ connected: false });
    },
  };
}

/** Builds the Signal adapter (signal-cli's HTTP daemon, one per account). */
export function createSignalAdapter(options: { now?: () => number } = {}): ChannelAdapter {
  const now = options.now ?? Date.now;
  return {
    id: "signal",
    label: "Signal",
    capabilities: {
      maxTextLength: SIGNAL_TEXT_LIMIT,
      markdown: "plain",
      typing: true,
      threads: false,
      media: true,
      nativeMentions: true,
      edits: false,
    },
    listAccounts: listSignalAccounts,
    validateAccount(config) {
      const result = resolveSignalSettings({ config });
      return result.ok ? undefined : result.error;
    },
    start: (context) => startAccount(context, now),
  };
}
