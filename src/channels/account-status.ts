// Per-account status kept by the host: configured/enabled/running plus the adapter's reports
// (connected, identity, errors) and the host's own counters (last inbound/outbound, pending deliveries,
// and the delivery queue's parts waiting, dead-lettered or of unknown fate).
import type { DeliveryCounts, DeliveryEntry } from "./delivery/delivery-entries.js";
import type { ChannelAccountStatus } from "./types.js";

/** One account's status as `channels.status` reports it. */
export interface AccountStatusSnapshot extends ChannelAccountStatus {
  accountId: string;
  enabled: boolean;
  configured: boolean;
  running: boolean;
  pendingDeliveries: number;
  /** Restarts after a failure (`account-supervisor.ts`), since the account was (re)configured. */
  restarts: number;
  /** When the next restart is due (ms epoch), while the account waits out its backoff. */
  nextRestartAt?: number;
  /** Parts in the delivery queue waiting for a (re)try. */
  queuedDeliveries: number;
  /** Dead letters: rejected or out of retries (`pincer channels failures`). */
  failedDeliveries: number;
  /** Parts whose fate nobody knows (a timeout, or a crash mid-send): reported, never re-sent. */
  uncertainDeliveries: number;
  probe?: unknown;
  /** False when the channel has no adapter in Pincer: configured, but nothing runs it. */
  adapter?: false;
}

/** The delivery-queue fields of a status snapshot. */
export function deliveryStatus(
  counts: DeliveryCounts,
): Pick<AccountStatusSnapshot, "queuedDeliveries" | "failedDeliveries" | "uncertainDeliveries"> {
  return {
    queuedDeliveries: counts.queued,
    failedDeliveries: counts.failed,
    uncertainDeliveries: counts.uncertain,
  };
}

/** Totals over every entry of the delivery queue (accounts gone from the config included). */
export function totalDeliveries(entries: readonly DeliveryEntry[]): DeliveryCounts {
  const counts: DeliveryCounts = { queued: 0, failed: 0, uncertain: 0 };
  for (const entry of entries) {
    if (entry.state === "failed" || entry.state === "uncertain") counts[entry.state] += 1;
    else counts.queued += 1;
  }
  return counts;
}

/** A fresh status for an account. */
export function initialAccountStatus(params: {
  accountId: string;
  enabled: boolean;
  configured: boolean;
  lastError?: string;
  at: number;
}): AccountStatusSnapshot {
  return {
    accountId: params.accountId,
    enabled: params.enabled,
    configured: params.configured,
    running: false,
    connected: false,
    pendingDeliveries: 0,
    restarts: 0,
    queuedDeliveries: 0,
    failedDeliveries: 0,
    uncertainDeliveries: 0,
    ...(params.lastError ? { lastError: params.lastError, lastErrorAt: params.at } : {}),
  };
}

/** Merges an adapter's (or the supervisor's) report into a status (an error stamps `lastErrorAt`). */
export function mergeAccountReport(
  status: AccountStatusSnapshot,
  update: Partial<ChannelAccountStatus> | Partial<Omit<AccountStatusSnapshot, "accountId">>,
  now: number,
): void {
  Object.assign(status, update);
  if (update.lastError !== undefined && update.lastErrorAt === undefined) status.lastErrorAt = now;
}
