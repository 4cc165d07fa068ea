// The Discord channel adapter (discord.js): one bot per account over the Gateway, messages sent
// through REST. Every MESSAGE_CREATE goes through the update guard in Gateway order (checked,
// converted, filtered, then `receive`); Discord has no offset to advance: after a reconnect
// discord.js resumes and the host dedupes a redelivered message by its id. A client that dies for
// good ends `ended` with the reason; the host's supervisor starts the account again.
import { abortableSleep } from "../../lib/abortable-sleep.js";
import {
  type ChannelAccountContext,
  type ChannelAccountRuntime,
  type ChannelAdapter,
  createUpdateGuard,
  DEFAULT_MAX_SUBMIT_ATTEMPTS,
  inlineImageUrls,
  type ProbeResult,
  type UpdateConversion,
} from "../index.js";
import { prefilterDiscordInbound } from "./access-prefilter.js";
import { editDiscordMessage } from "./edit.js";
import { type DiscordSelf, toDiscordInbound } from "./inbound.js";
import { parseDiscordMessage } from "./message-schema.js";
import {
  DISCORD_TEXT_LIMIT,
  type DiscordRest,
  type DmChannelCache,
  sendDiscordMessage,
  sendDiscordTyping,
} from "./send.js";
import { type DiscordSession, openDiscordSession } from "./session.js";
import {
  type DiscordAccountSettings,
  listDiscordAccounts,
  resolveDiscordSettings,
} from "./settings.js";

/** Tunables of {@link createDiscordAdapter}; the defaults suit production. */
export interface DiscordAdapterOptions {
  /** Pause before a message whose `receive` rejected is handed on again (ms). */
  receiveRetryDelayMs?: number;
  /** Clock for status timestamps and probe latency. */
  now?: () => number;
}

const DEFAULT_RECEIVE_RETRY_DELAY_MS = 1_000;

function messageIdOf(payload: unknown): string {
  const id = (payload as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : "unknown";
}

/** Probes the token: `GET /users/@me` answers who the bot is. */
export async function probeDiscord(rest: DiscordRest, now: () => number): Promise<ProbeResult> {
  const started = now();
  try {
    const me = (await rest.get("/users/@me")) as {
      id?: unknown;
      username?: unknown;
      global_name?: unknown;
    };
    if (typeof me?.id !== "string")
      return { ok: false, error: "GET /users/@me answered no user id" };
    const identity: { id: string; name?: string; username?: string } = { id: me.id };
    if (typeof me.username === "string") identity.username = me.username;
    if (typeof me.global_name === "string") identity.name = me.global_name;
    return { ok: true, identity, latencyMs: Math.max(0, now() - started) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

interface Receiver {
  context: ChannelAccountContext;
  settings: DiscordAccountSettings;
  session: () => DiscordSession;
  self: () => DiscordSelf;
  dmChannels: DmChannelCache;
  signal: AbortSignal;
}

async function convert(receiver: Receiver, payload: unknown): Promise<UpdateConversion> {
  const { context, settings } = receiver;
  const parsed = parseDiscordMessage(payload);
  if (!parsed.ok) return { kind: "invalid", reason: parsed.reason };
  const { message } = parsed;
  const facts = await receiver.session().lookup({
    channelId: message.channelId,
    ...(message.guildId ? { guildId: message.guildId } : {}),
  });
  const result = toDiscordInbound({
    message,
    ...facts,
    self: receiver.self(),
    accountId: context.accountId,
    allowBots: settings.allowBots,
  });
  if (result.kind === "ignored") {
    context.log.debug({ messageId: message.id, reason: result.reason }, "discord: message ignored");
    return { kind: "ignored" };
  }
  const dropped = prefilterDiscordInbound(result.inbound, settings);
  if (dropped) {
    context.log.info(
      { messageId: message.id, channelId: message.channelId, reason: dropped },
      "discord: message dropped",
    );
    return { kind: "ignored" };
  }
  if (result.inbound.peer.kind === "direct")
    receiver.dmChannels.set(message.author.id, message.channelId);
  result.inbound.media = await inlineImageUrls({
    media: result.inbound.media,
    maxBytes: settings.mediaMaxBytes,
    timeoutMs: settings.timeoutMs,
    signal: receiver.signal,
    log: context.log,
    channel: "discord",
  });
  return result;
}

async function startAccount(
  context: ChannelAccountContext,
  options: Required<DiscordAdapterOptions>,
): Promise<ChannelAccountRuntime> {
  const resolved = resolveDiscordSettings({
    config: context.config,
    env: context.env,
    accountId: context.accountId,
  });
  if (!resolved.ok) {
    context.report({ connected: false, lastError: resolved.error, lastErrorAt: options.now() });
    throw new Error(resolved.error);
  }
  const { settings } = resolved;
  const controller = new AbortController();
  const onHostAbort = () => controller.abort();
  if (context.signal.aborted) controller.abort();
  else context.signal.addEventListener("abort", onHostAbort, { once: true });
  context.log.info(
    { accountId: context.accountId, apiRoot: settings.apiRoot, tokenSource: settings.tokenSource },
    "discord: starting",
  );
  const guard = createUpdateGuard({
    log: context.log,
    report: context.report,
    submit: context.receive,
    now: options.now,
    signal: controller.signal,
    maxSubmitAttempts: DEFAULT_MAX_SUBMIT_ATTEMPTS,
  });
  const dmChannels: DmChannelCache = new Map();
  let self: DiscordSelf = { id: "" };
  let session: DiscordSession | undefined;
  const receiver: Receiver = {
    context,
    settings,
    session: () => session!,
    self: () => self,
    dmChannels,
    signal: controller.signal,
  };
  // One chain per account: messages are handed on in Gateway order, each after the previous resolved.
  let chain: Promise<void> = Promise.resolve();
  const handle = async (payload: unknown) => {
    const ready = await session!.ready;
    if (!ready) return;
    const id = messageIdOf(payload);
    for (;;) {
      const verdict = await guard.handle({
        id,
        update: payload,
        convert: (p) => convert(receiver, p),
      });
      if (verdict.advance || verdict.outcome !== "retry") return;
      await abortableSleep(options.receiveRetryDelayMs, controller.signal);
    }
  };
  session = await openDiscordSession({
    settings,
    log: context.log,
    onConnected(connected, identity) {
      if (identity) self = identity;
      const who = identity
        ? {
            identity: {
              id: identity.id,
              ...(identity.username
                ? { username: identity.username, name: identity.username }
                : {}),
            },
          }
        : {};
      context.report({ connected, ...who });
    },
    onMessage(payload) {
      chain = chain
        .then(() => handle(payload))
        .catch((err: unknown) =>
          context.log.error({ error: (err as Error).message }, "discord: message handling failed"),
        );
    },
  });
  const opened = session;
  const ended = opened.ended.then((end) => {
    if (end.failed)
      context.report({ connected: false, lastError: end.error, lastErrorAt: options.now() });
    return end;
  });
  return {
    ended,
    async send(message) {
      const { editMessageId } = message;
      const common = { rest: opened.rest, dmChannels, apiRoot: settings.apiRoot };
      const result =
        editMessageId !== undefined
          ? await editDiscordMessage({ ...common, message: { ...message, editMessageId } })
          : await sendDiscordMessage({ ...common, message, log: context.log });
      if (result.ok) context.report({ lastOutboundAt: options.now() });
      else
        context.log.warn(
          { accountId: context.accountId, ...result.failure },
          "discord: send failed",
        );
      return result;
    },
    sendTyping: (target) =>
      sendDiscordTyping({ rest: opened.rest, target, dmChannels, log: context.log }),
    probe: () => probeDiscord(opened.rest, options.now),
    async stop() {
      controller.abort();
      context.signal.removeEventListener("abort", onHostAbort);
      await opened.destroy();
      await chain;
      context.report({ connected: false });
    },
  };
}

/** Builds the Discord adapter: discord.js against `apiRoot` (default discord.com), one bot per account. */
export function createDiscordAdapter(options: DiscordAdapterOptions = {}): ChannelAdapter {
  const resolvedOptions: Required<DiscordAdapterOptions> = {
    receiveRetryDelayMs: options.receiveRetryDelayMs ?? DEFAULT_RECEIVE_RETRY_DELAY_MS,
    now: options.now ?? Date.now,
  };
  return {
    id: "discord",
    label: "Discord",
    capabilities: {
      maxTextLength: DISCORD_TEXT_LIMIT,
      markdown: "markdown",
      typing: true,
      threads: true,
      media: true,
      nativeMentions: true,
      edits: true,
    },
    listAccounts: listDiscordAccounts,
    validateAccount(config, env) {
      const result = resolveDiscordSettings({ config, env });
      return result.ok ? undefined : result.error;
    },
    start: (context) => startAccount(context, resolvedOptions),
  };
}
