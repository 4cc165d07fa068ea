// Per-account status kept by the host: configured/enabled/running plus the adapter's reports
// (connected, identity, errors) and the host's own counters (last inbound/outbound, pending deliveries).
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
  probe?: unknown;
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
