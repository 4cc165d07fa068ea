// The long-poll loop of one bot: getMe (→ connected), deleteWebhook, then getUpdates from the stored
// offset. Each update goes through the channel update guard (`../update-guard.ts`): converted,
// handed to `receive`, and the offset advances once `receive` resolved, or once a malformed update
// was logged and skipped (a restart does not see it again); a rejected update is polled again. The
// offset is persisted once per batch (and on stop), so a restart neither loses nor replays updates
// (a crash mid-batch replays that batch's handed-on part). Any platform failure (network, 5xx, 429,
// a refused token, a malformed answer) or a crash ends the run with a `ChannelAccountEnd` value
// (never a rejection): the host's supervisor restarts the account with backoff. Aborting the signal
// ends the in-flight poll at once.
import { type Api, GrammyError } from "grammy";
import { abortableSleep } from "../../lib/abortable-sleep.js";
import {
  type ChannelAccountContext,
  type ChannelAccountEnd,
  createUpdateGuard,
  DEFAULT_MAX_SUBMIT_ATTEMPTS,
  describeError,
  type UpdateConversion,
} from "../index.js";
import type { TelegramAccountSettings } from "./account-settings.js";
import { toGrammySignal } from "./grammy-signal.js";
import { type TelegramBotIdentity, toChannelInbound } from "./inbound.js";
import { downloadInboundImages } from "./inbound-media.js";
import { offsetFilePath, readStoredOffset, writeStoredOffset } from "./offset-store.js";
import { isUnauthorizedError } from "./send-failure.js";
import type { TelegramUpdateParser } from "./update-schema.js";

/** Seconds Telegram holds a getUpdates request open when nothing arrives. */
export const TELEGRAM_POLL_TIMEOUT_SECONDS = 30;

/** Pause before an update whose `receive` rejected is polled again. */
export const DEFAULT_RECEIVE_RETRY_DELAY_MS = 1_000;

/** Tries of one update whose `receive` keeps rejecting before it is skipped (so one bad update cannot stall a bot forever). */
export const MAX_RECEIVE_ATTEMPTS = DEFAULT_MAX_SUBMIT_ATTEMPTS;

const ALLOWED_UPDATES = ["message", "channel_post"] as const;

const STOPPED: ChannelAccountEnd = { failed: false };

/** Inputs for {@link runTelegramPolling}. */
export interface TelegramPollingParams {
  /** Client for getMe/getUpdates (its timeout exceeds the long-poll timeout). */
  pollApi: Api;
  /** Client for getFile downloads. */
  api: Api;
  settings: TelegramAccountSettings;
  context: ChannelAccountContext;
  signal: AbortSignal;
  receiveRetryDelayMs: number;
  /** The adapter's compiled update schema. */
  parseUpdate: TelegramUpdateParser;
  now: () => number;
  /** Called once getMe answered, so sends and probes know who the bot is. */
  onIdentity: (identity: TelegramBotIdentity) => void;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function typeName(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/** Ends the run as failed: logged, reported, with Telegram's `retry_after` when it sent one. */
function failRun(params: TelegramPollingParams, stage: string, err: unknown): ChannelAccountEnd {
  const { context } = params;
  const hint = isUnauthorizedError(err) ? " (check the bot token)" : "";
  const error = `${stage}: ${errorText(err)}${hint}`;
  context.log.warn({ accountId: context.accountId, error }, "telegram: polling stopped");
  context.report({ connected: false, lastError: error, lastErrorAt: params.now() });
  const retryAfter = err instanceof GrammyError ? err.parameters.retry_after : undefined;
  return typeof retryAfter === "number" && retryAfter >= 0
    ? { failed: true, error, retryAfterMs: retryAfter * 1000 }
    : { failed: true, error };
}

/** The bot's identity from a getMe answer, refusing one without a numeric id. */
function identityOf(me: unknown): TelegramBotIdentity {
  const fields = (typeof me === "object" && me !== null ? me : {}) as Record<string, unknown>;
  if (!Number.isSafeInteger(fields.id)) {
    throw new Error(`malformed result: expected a bot with a numeric id, got ${typeName(me)}`);
  }
  const identity: TelegramBotIdentity = { id: String(fields.id) };
  if (typeof fields.username === "string") identity.username = fields.username;
  if (typeof fields.first_name === "string") identity.name = fields.first_name;
  return identity;
}

/** The `update_id` of one getUpdates item, when it has a usable one. */
function updateIdOf(item: unknown): number | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const id = (item as { update_id?: unknown }).update_id;
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0 ? id : undefined;
}

/**
 * Runs the loop until the signal aborts (`{failed: false}`) or it cannot go on (`{failed: true}`:
 * a platform error, a refused token, a malformed answer, a crash). Never rejects.
 */
export async function runTelegramPolling(
  params: TelegramPollingParams,
): Promise<ChannelAccountEnd> {
  try {
    return await poll(params);
  } catch (err) {
    if (params.signal.aborted) return STOPPED;
    return failRun(params, "polling crashed", describeError(err));
  }
}

async function poll(params: TelegramPollingParams): Promise<ChannelAccountEnd> {
  const { context, signal, now } = params;

  // 1. Who are we? Also proves the token and the API root work.
  let identity: TelegramBotIdentity;
  try {
    const me = await params.pollApi.getMe(toGrammySignal(signal));
    await params.pollApi.deleteWebhook({ drop_pending_updates: false }, toGrammySignal(signal));
    identity = identityOf(me);
  } catch (err) {
    if (signal.aborted) return STOPPED;
    return failRun(params, "getMe", err);
  }
  if (signal.aborted) return STOPPED;
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
  const guard = createUpdateGuard({
    log: context.log,
    report: context.report,
    submit: context.receive,
    now,
    signal,
    maxSubmitAttempts: MAX_RECEIVE_ATTEMPTS,
  });
  const convert = (update: unknown) => convertUpdate(params, identity, update);
  while (!signal.aborted) {
    let batch: unknown;
    try {
      batch = await params.pollApi.getUpdates(
        {
          offset: lastUpdateId === undefined ? undefined : lastUpdateId + 1,
          timeout: TELEGRAM_POLL_TIMEOUT_SECONDS,
          allowed_updates: [...ALLOWED_UPDATES],
        },
        toGrammySignal(signal),
      );
    } catch (err) {
      if (signal.aborted) return STOPPED;
      return failRun(params, "getUpdates", err);
    }
    if (!Array.isArray(batch)) {
      const problem = `malformed result: expected an array of updates, got ${typeName(batch)}`;
      return failRun(params, "getUpdates", problem);
    }
    const before = lastUpdateId;
    let pollAgain = false;
    for (const [index, update] of batch.entries()) {
      if (signal.aborted) break;
      const updateId = updateIdOf(update);
      if (updateId === undefined) {
        context.log.warn(
          { accountId: context.accountId, index, reason: "update_id missing or not an integer" },
          "channel update skipped: malformed",
        );
        continue;
      }
      if (lastUpdateId !== undefined && updateId <= lastUpdateId) continue;
      const verdict = await guard.handle({ id: updateId, update, convert });
      if (!verdict.advance) {
        if (verdict.outcome === "retry") await abortableSleep(params.receiveRetryDelayMs, signal);
        pollAgain = true;
        break; // poll again from this update
      }
      lastUpdateId = updateId;
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
    // A batch that moved nothing would come back at once, forever: end the run (backoff) instead.
    if (batch.length > 0 && lastUpdateId === before && !pollAgain && !signal.aborted) {
      const problem = `${batch.length} updates and none past the offset (${before ?? "none"})`;
      return failRun(params, "getUpdates", problem);
    }
  }
  return STOPPED;
}

/** One update → inbound (schema-checked), its photos downloaded; runs inside the update guard. */
async function convertUpdate(
  params: TelegramPollingParams,
  identity: TelegramBotIdentity,
  update: unknown,
): Promise<UpdateConversion> {
  const { context } = params;
  const conversion = toChannelInbound({
    update,
    accountId: context.accountId,
    bot: identity,
    parse: params.parseUpdate,
  });
  if (conversion.kind !== "inbound") return conversion;
  conversion.inbound.media = await downloadInboundImages({
    media: conversion.inbound.media,
    api: params.api,
    settings: params.settings,
    signal: params.signal,
    log: context.log,
  });
  return conversion;
}
