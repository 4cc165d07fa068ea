// The parts this process sent lately, by the platform message id their send returned, so a
// platform's later receipt (a WhatsApp Cloud API `failed` status) finds the part it is about. Bounded
// (the newest RECEIPTS_KEPT), in memory only: a receipt for a message sent before a restart is still
// reported, without the part's text. Each message fails at most once (platforms redeliver callbacks).
import type { PlannedDelivery } from "./delivery-records.js";

/** Sent parts remembered for receipts. */
export const RECEIPTS_KEPT = 5_000;

/** A sent part: its delivery's plan and its index there. */
export interface SentPart {
  plan: PlannedDelivery;
  at: number;
}

/** The index of sent parts. */
export interface SentReceipts {
  remember(part: SentPart, messageId: string): void;
  lookup(channel: string, accountId: string, messageId: string): SentPart | undefined;
  /** True the first time a message is reported failed, false for a repeat. */
  firstFailure(channel: string, accountId: string, messageId: string): boolean;
}

const keyOf = (channel: string, accountId: string, messageId: string) =>
  `${channel}\u0000${accountId}\u0000${messageId}`;

/** Creates an empty index. */
export function createSentReceipts(limit = RECEIPTS_KEPT): SentReceipts {
  const sent = new Map<string, SentPart>();
  const failed = new Set<string>();
  const trim = <T>(items: Map<string, T> | Set<string>) => {
    while (items.size > limit) {
      const oldest = items.keys().next().value;
      if (oldest === undefined) break;
      items.delete(oldest);
    }
  };
  return {
    remember(part, messageId) {
      const { channel, accountId } = part.plan;
      sent.set(keyOf(channel, accountId, messageId), part);
      trim(sent);
    },
    lookup: (channel, accountId, messageId) => sent.get(keyOf(channel, accountId, messageId)),
    firstFailure(channel, accountId, messageId) {
      const key = keyOf(channel, accountId, messageId);
      if (failed.has(key)) return false;
      failed.add(key);
      trim(failed);
      return true;
    },
  };
}
