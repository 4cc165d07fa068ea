// The long-poll loop of one bot: getMe (→ connected), deleteWebhook, then getUpdates from the stored
// offset. Each update is handed to `receive` in order and the offset advances only once `receive`
// resolved; it is persisted once per batch (and on stop), so a restart neither loses nor replays
// updates (a crash mid-batch replays that batch's handed-on part); a rejected update is polled again.
// Errors back off and are reported; aborting the signal ends the in-flight poll at once.
import { type Api, GrammyError } from "grammy";
import type { Update } from "grammy/types";
import type { ChannelAccountContext } from "../types.js";
import type { TelegramAccountSettings } from "./account-settings.js";
import { toGrammySignal } from "./grammy-signal.js";
import { type TelegramBotIdentity, toChannelInbound } from "./inbound.js";
import { downloadInboundImages } from "./inbound-media.js";
import { offsetFilePath, readStoredOffset, writeStoredOffset } from "./offset-store.js";
import { isUnauthorizedError } from "./send-failure.js";

/** Seconds Telegram holds a getUpdates request open when nothing arrives. */
export const TELEGRAM_POLL_TIMEOUT_SECONDS = 30;

/** Delays between failed attempts; the last one repeats. */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/** Tries of one update whose `receive` keeps rejecting before it is skipped (so one bad update cannot stall a bot forever). */
export const MAX_RECEIVE_ATTEMPTS = 5;

const ALLOWED_UPDATES = ["message", "channel_post"] as const;

/** Inputs for {@link runTelegramPolling}. */
export interface TelegramPollingParams {
  /** Client for getMe/getUpdates (its timeout exceeds the long-poll timeout). */
  pollApi: Api;
  /** Client for getFile downloads. */
  api: Api;
  settings: TelegramAccountSettings;
  context: ChannelAccountContext;
  signal: AbortSignal;
  retryDelaysMs: number[];
  now: () => number;
  /** Called once getMe answered, so sends and probes know who the bot is. */
  onIdentity: (identity: TelegramBotIdentity) => void;
}

/** Waits `ms`, or less if the signal aborts first (never rejects). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Runs the loop until the signal aborts or the token is rejected; never rejects itself. */
export async function runTelegramPolling(params: TelegramPollingParams): Promise<void> {
  const { context, signal, retryDelaysMs, now } = params;
  let failures = 0;
  const backoff = async (err: unknown, stage: string) => {
    const retryAfter = err instanceof GrammyError ? err.parameters.retry_after : undefined;
    const delay =
      typeof retryAfter === "number"
        ? retryAfter * 1000
        : (retryDelaysMs[Math.min(failures, retryDelaysMs.length - 1)] ?? 1_000);
    failures += 1;
    const message = `${stage}: ${errorText(err)}`;
    context.log.warn(
      { accountId: context.accountId, error: message, retryInMs: delay },
      "telegram: polling error",
    );
    context.report({ lastError: message, lastErrorAt: now() });
    await sleep(delay, signal);
  };
  const fatal = (err: unknown, stage: string) => {
    const message = `${stage}: ${errorText(err)} (check the bot token)`;
    context.log.error(
      { accountId: context.accountId, error: message },
      "telegram: polling stopped",
    );
    context.report({ connected: false, lastError: message, lastErrorAt: now() });
  };

  // 1. Who are we? Also proves the token and the API root work.
  let identity: TelegramBotIdentity | undefined;
  while (!signal.aborted && !identity) {
    try {
      const me = await params.pollApi.getMe(toGrammySignal(signal));
      await params.pollApi.deleteWebhook({ drop_pending_updates: false }, toGrammySignal(signal));
      identity = { id: String(me.id), username: me.username, name: me.first_name };
    } catch (err) {
      if (signal.aborted) return;
      if (isUnauthorizedError(err)) return fatal(err, "getMe");
      await backoff(err, "getMe");
    }
  }
  if (!identity) return;
  failures = 0;
  params.onIdentity(identity);
  context.report({ connected: true, identity });
  context.log.info({ accountId: context.accountId, bot: identity.username }, "telegram: connected");

  // 2. Where were we?
  const offsetPath = offsetFilePath(context.stateDir, context.accountId);
  const stored = await readStoredOffset(offsetPath);
  let lastUpdateId: number | undefined;
  if (stored.kind === "ok" && stored.offset.botId === identity.id)
    lastUpdateId = stored.offset.lastUpdateId;
  if (stored.kind === "invalid") {
    context.log.warn({ path: offsetPath, reason: stored.reason }, "telegram: offset file ignored");
  }

  // 3. Poll.
  const attempts = new Map<number, number>();
  let connected = true;
  while (!signal.aborted) {
    let updates: Update[];
    try {
      updates = await params.pollApi.getUpdates(
        {
          offset: lastUpdateId === undefined ? undefined : lastUpdateId + 1,
          timeout: TELEGRAM_POLL_TIMEOUT_SECONDS,
          allowed_updates: [...ALLOWED_UPDATES],
        },
        toGrammySignal(signal),
      );
    } catch (err) {
      if (signal.aborted) return;
      if (isUnauthorizedError(err)) return fatal(err, "getUpdates");
      if (connected) context.report({ connected: false });
      connected = false;
      await backoff(err, "getUpdates");
      continue;
    }
    failures = 0;
    if (!connected) context.report({ connected: true });
    connected = true;
    const before = lastUpdateId;
    for (const update of updates) {
      if (signal.aborted) break;
      if (lastUpdateId !== undefined && update.update_id <= lastUpdateId) continue;
      const handled = await handOn({ ...params, identity, update, attempts });
      if (!handled) {
        await sleep(retryDelaysMs[0] ?? 1_000, signal);
        break; // poll again from this update
      }
      lastUpdateId = update.update_id;
    }
    // One fsync'd write per batch, not per update: per update, each hand-on waited for the disk and
    // 1,000 queued messages trickled in at ~45/s under load (bench/channels.mjs).
    if (lastUpdateId !== undefined && lastUpdateId !== before) {
      try {
        context.syncInbound(); // the journal first: the offset stops Telegram redelivering them
        await writeStoredOffset(offsetPath, { version: 1, botId: identity.id, lastUpdateId });
      } catch (err) {
        context.log.error(
          { path: offsetPath, error: errorText(err) },
          "telegram: offset not saved",
        );
        context.report({ lastError: `offset not saved: ${errorText(err)}`, lastErrorAt: now() });
      }
    }
  }
}

/** Converts one update and hands it to `receive`; false when it must be polled again. */
async function handOn(
  params: TelegramPollingParams & {
    identity: TelegramBotIdentity;
    update: Update;
    attempts: Map<number, number>;
  },
): Promise<boolean> {
  const { context, update, signal } = params;
  const inbound = toChannelInbound({ update, accountId: context.accountId, bot: params.identity });
  if (!inbound) return true;
  inbound.media = await downloadInboundImages({
    media: inbound.media,
    api: params.api,
    settings: params.settings,
    signal,
    log: context.log,
  });
  if (signal.aborted) return false;
  try {
    await context.receive(inbound);
    params.attempts.delete(update.update_id);
    context.report({ lastInboundAt: params.now() });
    return true;
  } catch (err) {
    const tries = (params.attempts.get(update.update_id) ?? 0) + 1;
    params.attempts.set(update.update_id, tries);
    const fields = {
      accountId: context.accountId,
      updateId: update.update_id,
      tries,
      error: errorText(err),
    };
    context.report({ lastError: `receive: ${errorText(err)}`, lastErrorAt: params.now() });
    if (tries >= MAX_RECEIVE_ATTEMPTS) {
      context.log.error(fields, "telegram: update skipped after repeated receive failures");
      params.attempts.delete(update.update_id);
      return true;
    }
    context.log.warn(fields, "telegram: receive failed; the update will be polled again");
    return false;
  }
}
