// The Telegram channel adapter (grammY): one bot per account, long polling with a persisted offset,
// Markdown rendered to Telegram HTML on the way out, the "/" command menu set on start. A polling
// run that fails ends `ended` with the reason; the host's supervisor starts the account again.
// Registers like any third-party adapter would.
import { Api } from "grammy";
import type {
  ChannelAccountContext,
  ChannelAccountRuntime,
  ChannelAdapter,
  ProbeResult,
} from "../index.js";
import {
  listTelegramAccounts,
  resolveTelegramSettings,
  type TelegramAccountSettings,
} from "./account-settings.js";
import type { TelegramBotIdentity } from "./inbound.js";
import { syncTelegramCommandMenu } from "./native-commands.js";
import {
  DEFAULT_RECEIVE_RETRY_DELAY_MS,
  runTelegramPolling,
  TELEGRAM_POLL_TIMEOUT_SECONDS,
} from "./polling.js";
import { sendTelegramMessage, sendTelegramTyping, TELEGRAM_TEXT_LIMIT } from "./send.js";
import { createTelegramUpdateParser, type TelegramUpdateParser } from "./update-schema.js";

/** Tunables of {@link createTelegramAdapter}; the defaults suit production. */
export interface TelegramAdapterOptions {
  /** Pause before an update whose `receive` rejected is polled again (ms). Polling failures end the
   *  run instead (`ended`): the host restarts the account with its own backoff. */
  receiveRetryDelayMs?: number;
  /** Clock for status timestamps and probe latency. */
  now?: () => number;
}

function createApis(settings: TelegramAccountSettings): { api: Api; pollApi: Api } {
  const api = new Api(settings.token, {
    apiRoot: settings.apiRoot,
    timeoutSeconds: settings.timeoutSeconds,
  });
  // The long poll must outlive Telegram's own hold time, so it gets a client with a longer timeout.
  const pollApi = new Api(settings.token, {
    apiRoot: settings.apiRoot,
    timeoutSeconds: TELEGRAM_POLL_TIMEOUT_SECONDS + settings.timeoutSeconds,
  });
  return { api, pollApi };
}

async function probe(api: Api, now: () => number): Promise<ProbeResult> {
  const started = now();
  try {
    const me = await api.getMe();
    return {
      ok: true,
      identity: { id: String(me.id), username: me.username, name: me.first_name },
      latencyMs: Math.max(0, now() - started),
    };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

async function startAccount(
  context: ChannelAccountContext,
  options: Required<TelegramAdapterOptions>,
  parseUpdate: TelegramUpdateParser,
): Promise<ChannelAccountRuntime> {
  const resolved = resolveTelegramSettings({
    config: context.config,
    env: context.env,
    accountId: context.accountId,
  });
  if (!resolved.ok) {
    // The host validates before starting; reaching here means it did not, so the start itself fails.
    context.report({ connected: false, lastError: resolved.error, lastErrorAt: options.now() });
    throw new Error(resolved.error);
  }
  const { settings } = resolved;
  const { api, pollApi } = createApis(settings);
  const controller = new AbortController();
  const onHostAbort = () => controller.abort();
  if (context.signal.aborted) controller.abort();
  else context.signal.addEventListener("abort", onHostAbort, { once: true });
  context.log.info(
    { accountId: context.accountId, apiRoot: settings.apiRoot, tokenSource: settings.tokenSource },
    "telegram: starting",
  );
  // Once per start, beside polling: a menu that cannot be set never holds up or stops the bot.
  const menuSynced = syncTelegramCommandMenu({
    api,
    menu: context.commandMenu,
    log: context.log,
    signal: controller.signal,
    accountId: context.accountId,
  });
  let identity: TelegramBotIdentity | undefined;
  const loop = runTelegramPolling({
    pollApi,
    api,
    settings,
    context,
    signal: controller.signal,
    receiveRetryDelayMs: options.receiveRetryDelayMs,
    parseUpdate,
    now: options.now,
    onIdentity: (me) => {
      identity = me;
    },
  });
  return {
    ended: loop,
    async send(message) {
      const result = await sendTelegramMessage({ api, message, log: context.log });
      if (result.ok) context.report({ lastOutboundAt: options.now() });
      else {
        context.log.warn(
          { accountId: context.accountId, bot: identity?.username, ...result.failure },
          "telegram: send failed",
        );
      }
      return result;
    },
    sendTyping: (target) => sendTelegramTyping({ api, target, log: context.log }),
    probe: () => probe(api, options.now),
    async stop() {
      controller.abort();
      context.signal.removeEventListener("abort", onHostAbort);
      await Promise.all([loop, menuSynced]);
      context.report({ connected: false });
    },
  };
}

/** Builds the Telegram adapter: grammY against `apiRoot` (default api.telegram.org), one bot per account. */
export function createTelegramAdapter(options: TelegramAdapterOptions = {}): ChannelAdapter {
  const resolvedOptions: Required<TelegramAdapterOptions> = {
    receiveRetryDelayMs: options.receiveRetryDelayMs ?? DEFAULT_RECEIVE_RETRY_DELAY_MS,
    now: options.now ?? Date.now,
  };
  // Compiled on the first start, shared by every account and restart of this adapter.
  let parseUpdate: TelegramUpdateParser | undefined;
  return {
    id: "telegram",
    label: "Telegram",
    capabilities: {
      maxTextLength: TELEGRAM_TEXT_LIMIT,
      markdown: "html",
      typing: true,
      threads: true,
      media: true,
      nativeMentions: true,
      edits: true,
    },
    listAccounts: listTelegramAccounts,
    validateAccount(config, env) {
      const result = resolveTelegramSettings({ config, env });
      return result.ok ? undefined : result.error;
    },
    start: (context) => {
      parseUpdate ??= createTelegramUpdateParser();
      return startAccount(context, resolvedOptions, parseUpdate);
    },
  };
}
