// Inbound of one connected account: each `messages.upsert` of type `notify` (new messages; `append`
// is history and this socket's own sends) goes, in order, through the channel update guard:
// converted (`inbound.ts`; LID senders of a group resolved through its metadata, small images
// downloaded), handed to `receive`. A rejected receive is tried again after a pause (WhatsApp does
// not redeliver). Once a batch is through, the inbound journal is synced, then each accepted message
// is marked read (`sendReadReceipts`, default on) and gets the ack reaction (`ackReaction`).
import { abortableSleep } from "../../../lib/abortable-sleep.js";
import {
  type ChannelAccountContext,
  type ChannelInbound,
  createUpdateGuard,
  DEFAULT_MAX_SUBMIT_ATTEMPTS,
  type UpdateConversion,
} from "../../index.js";
import { whatsAppJidKind } from "../peer-id.js";
import { type GroupMetadataCache, phoneJidInGroup } from "./group-metadata.js";
import { bareJid, toWebInbound, type WebSelfIdentity } from "./inbound.js";
import { inlineInboundImages } from "./inbound-media.js";
import type { RecentMessages } from "./message-cache.js";
import type { WebAccountSettings } from "./settings.js";
import type { WAMessage, WhatsAppSocket, WhatsAppSocketEvents } from "./socket-seam.js";

/** Pause before a message whose `receive` rejected is handed on again. */
export const DEFAULT_RECEIVE_RETRY_DELAY_MS = 1_000;

/** Inputs for {@link createWebReceiver}. */
export interface WebReceiverParams {
  context: ChannelAccountContext;
  socket: WhatsAppSocket;
  self: WebSelfIdentity;
  selfChat: boolean;
  settings: WebAccountSettings;
  /** Inbound messages by id (for quotes and downloads). */
  inbound: RecentMessages<WAMessage>;
  /** Ids this account sent (their echoes are skipped). */
  sent: RecentMessages<true>;
  groups: GroupMetadataCache;
  signal: AbortSignal;
  now: () => number;
  receiveRetryDelayMs: number;
}

/** Handles upserts of one socket; `idle` resolves once every upsert so far is handled. */
export interface WebReceiver {
  onUpsert(upsert: WhatsAppSocketEvents["messages.upsert"]): void;
  idle(): Promise<void>;
}

function needsGroupMetadata(message: WAMessage): boolean {
  const key = message.key;
  if (!key?.remoteJid || whatsAppJidKind(key.remoteJid) !== "group" || key.fromMe) return false;
  const participant = key.participant ?? undefined;
  return !!participant && whatsAppJidKind(participant) === "lid" && !key.participantAlt;
}

/** Creates the receiver of one socket. */
export function createWebReceiver(params: WebReceiverParams): WebReceiver {
  const { context, socket, settings } = params;
  const guard = createUpdateGuard({
    log: context.log,
    report: context.report,
    submit: context.receive,
    now: params.now,
    signal: params.signal,
    maxSubmitAttempts: DEFAULT_MAX_SUBMIT_ATTEMPTS,
  });

  const convert = async (message: WAMessage): Promise<UpdateConversion> => {
    const metadata = needsGroupMetadata(message)
      ? await params.groups.get(message.key.remoteJid!)
      : undefined;
    const conversion = toWebInbound({
      message,
      accountId: context.accountId,
      self: params.self,
      selfChat: params.selfChat,
      phoneJidOfLid: (lid) => phoneJidInGroup(metadata, lid),
      receivedAt: params.now(),
    });
    if (conversion.kind !== "inbound") return conversion;
    params.inbound.remember(conversion.inbound.messageId, message);
    conversion.inbound.media = await inlineInboundImages({
      media: conversion.inbound.media,
      message,
      socket,
      maxBytes: settings.inlineImageMaxBytes,
      log: context.log,
    });
    return conversion;
  };

  /** One message through the guard, retried while `receive` rejects; the inbound when accepted. */
  const handleOne = async (message: WAMessage): Promise<ChannelInbound | undefined> => {
    const id = message.key?.id ?? "(no id)";
    if (message.key?.id && params.sent.has(message.key.id)) return undefined;
    let accepted: ChannelInbound | undefined;
    const capture = async (update: WAMessage) => {
      const conversion = await convert(update);
      accepted = conversion.kind === "inbound" ? conversion.inbound : undefined;
      return conversion;
    };
    for (;;) {
      const verdict = await guard.handle({ id, update: message, convert: capture });
      if (verdict.advance) return verdict.outcome === "submitted" ? accepted : undefined;
      if (verdict.outcome === "aborted") return undefined;
      await abortableSleep(params.receiveRetryDelayMs, params.signal);
    }
  };

  const acknowledge = async (inbound: ChannelInbound, message: WAMessage) => {
    if (inbound.fromSelf) return;
    const key = message.key;
    if (settings.sendReadReceipts) {
      await socket.readMessages([key]).catch((err: unknown) => {
        context.log.warn(
          { messageId: key.id, error: (err as Error).message },
          "whatsapp: read receipt failed",
        );
      });
    }
    const ack = settings.ackReaction;
    if (!ack) return;
    const isGroup = inbound.peer.kind === "group";
    const wanted = isGroup
      ? ack.group === "always" || (ack.group === "mentions" && inbound.mentionedSelf)
      : ack.direct;
    if (!wanted) return;
    await socket
      .sendMessage(key.remoteJid!, { react: { text: ack.emoji, key } })
      .then((sent) => {
        if (sent?.key?.id) params.sent.remember(sent.key.id, true);
      })
      .catch((err: unknown) => {
        context.log.warn(
          { messageId: key.id, error: (err as Error).message },
          "whatsapp: ack reaction failed",
        );
      });
  };

  const handleBatch = async (messages: WAMessage[]) => {
    const accepted: Array<[ChannelInbound, WAMessage]> = [];
    for (const message of messages) {
      if (params.signal.aborted) break;
      const inbound = await handleOne(message);
      if (inbound) accepted.push([inbound, message]);
    }
    if (accepted.length === 0) return;
    context.syncInbound(); // on disk before the sender sees "read"
    context.report({ lastInboundAt: params.now() });
    for (const [inbound, message] of accepted) await acknowledge(inbound, message);
  };

  let chain: Promise<void> = Promise.resolve();
  return {
    onUpsert(upsert) {
      if (upsert.type !== "notify" || !Array.isArray(upsert.messages)) return;
      const messages = upsert.messages.filter(
        (m) => !m.key?.remoteJid || bareJid(m.key.remoteJid) !== "status@broadcast",
      );
      chain = chain.then(() =>
        handleBatch(messages).catch((err: unknown) => {
          context.log.error(
            { error: (err as Error).message, stack: (err as Error).stack },
            "whatsapp: inbound batch failed",
          );
        }),
      );
    },
    idle: () => chain,
  };
}
