// The receive loop of one Signal account: signal-cli's event stream (`GET /api/v1/events`, SSE),
// each `receive` event converted (attachments downloaded) and handed on through the update guard.
// A dropped or refused stream is reconnected after a backoff (0.5 s doubling to 30 s, reset once
// connected) with `Last-Event-ID`, so the daemon resends what came meanwhile; an event already
// handed on (same sender and timestamp) is skipped, so a resend never runs twice. Ends only when
// the signal aborts; never rejects.
import { abortableSleep } from "../../lib/abortable-sleep.js";
import {
  type ChannelAccountContext,
  type ChannelInbound,
  createUpdateGuard,
  describeError,
  type UpdateConversion,
} from "../index.js";
import { downloadSignalAttachments } from "./attachments.js";
import { toSignalInbound } from "./inbound.js";
import type { SignalRpc } from "./rpc.js";
import type { SignalAccountSettings } from "./settings.js";
import { readSseEvents } from "./sse.js";

const MIN_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
/** Message keys remembered against resends (sender + timestamp). */
const SEEN_LIMIT = 5_000;

/** Inputs of {@link runSignalEvents}. */
export interface SignalEventsParams {
  settings: SignalAccountSettings;
  rpc: SignalRpc;
  context: ChannelAccountContext;
  signal: AbortSignal;
  now: () => number;
  /** Called with each DM handed on (read receipts are sent once its reply starts). */
  onDirect: (inbound: ChannelInbound) => void;
}

function remember(seen: Set<string>, key: string): void {
  seen.add(key);
  if (seen.size > SEEN_LIMIT) {
    const oldest = seen.values().next().value;
    if (oldest !== undefined) seen.delete(oldest);
  }
}

/** Runs until the signal aborts. */
export async function runSignalEvents(params: SignalEventsParams): Promise<void> {
  const { settings, context, signal, now } = params;
  const guard = createUpdateGuard({
    log: context.log,
    report: context.report,
    submit: context.receive,
    now,
    signal,
  });
  const seen = new Set<string>();
  let lastEventId: string | undefined;
  let backoff = MIN_BACKOFF_MS;
  const query = settings.account ? `?account=${encodeURIComponent(settings.account)}` : "";
  const url = `${settings.baseUrl}/api/v1/events${query}`;
  const convert = async (data: unknown): Promise<UpdateConversion> => {
    const conversion = toSignalInbound({
      event: data,
      accountId: context.accountId,
      ...(settings.account ? { self: settings.account } : {}),
    });
    if (conversion.kind !== "inbound") return conversion;
    conversion.inbound.media = await downloadSignalAttachments({
      inbound: conversion.inbound,
      rpc: params.rpc,
      settings,
      log: context.log,
      signal,
    });
    return conversion;
  };
  while (!signal.aborted) {
    try {
      const res = await fetch(url, {
        headers: {
          accept: "text/event-stream",
          ...(lastEventId !== undefined ? { "last-event-id": lastEventId } : {}),
        },
        signal,
      });
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        throw new Error(`event stream answered HTTP ${res.status}`);
      }
      context.report({ connected: true });
      context.log.info({ url: settings.baseUrl }, "signal: event stream connected");
      backoff = MIN_BACKOFF_MS;
      for await (const event of readSseEvents(res.body)) {
        if (event.event !== undefined && event.event !== "receive") continue;
        await handleEvent({ data: event.data, guard, seen, convert, params });
        if (event.id !== undefined) lastEventId = event.id;
        if (signal.aborted) break;
      }
      if (signal.aborted) break;
      throw new Error("event stream ended");
    } catch (err) {
      if (signal.aborted) break;
      const error = `event stream: ${describeError(err)}; reconnecting in ${backoff} ms`;
      context.log.warn({ error }, "signal: event stream lost");
      context.report({ connected: false, lastError: error, lastErrorAt: now() });
      await abortableSleep(backoff, signal);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }
}

/** The dedupe key of an event: its sender and timestamp, when it has both. */
function keyOf(data: unknown): string | undefined {
  const envelope = (data as { envelope?: Record<string, unknown> } | null)?.envelope;
  if (!envelope || typeof envelope !== "object") return undefined;
  const source = envelope.sourceUuid ?? envelope.sourceNumber ?? envelope.source;
  const timestamp = envelope.timestamp;
  return typeof source === "string" && typeof timestamp === "number"
    ? `${source}:${timestamp}`
    : undefined;
}

async function handleEvent(input: {
  data: string;
  guard: ReturnType<typeof createUpdateGuard>;
  seen: Set<string>;
  convert: (data: unknown) => Promise<UpdateConversion>;
  params: SignalEventsParams;
}): Promise<void> {
  const { params, seen } = input;
  let data: unknown;
  try {
    data = JSON.parse(input.data);
  } catch {
    params.context.log.warn(
      { reason: "event data is not JSON", data: input.data.slice(0, 200) },
      "channel update skipped: malformed",
    );
    return;
  }
  const key = keyOf(data);
  if (key !== undefined && seen.has(key)) return;
  let direct: ChannelInbound | undefined;
  const convert = async (update: unknown) => {
    const conversion = await input.convert(update);
    if (conversion.kind === "inbound" && conversion.inbound.peer.kind === "direct")
      direct = conversion.inbound;
    return conversion;
  };
  // The stream cannot be asked again: a rejected hand-on is retried here until the guard gives up.
  for (;;) {
    const verdict = await input.guard.handle({ id: key ?? "event", update: data, convert });
    if (verdict.advance) break;
    if (verdict.outcome === "aborted") return;
    await abortableSleep(1_000, params.signal);
    if (params.signal.aborted) return;
  }
  if (key !== undefined) remember(seen, key);
  if (direct) params.onDirect(direct);
}
