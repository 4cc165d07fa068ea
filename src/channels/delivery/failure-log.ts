// Failed deliveries are never lost: each dead letter (rejected, retries exhausted, or an outcome
// nobody knows) is appended as one JSON line to `<stateDir>/channels/delivery-failures.jsonl` (one
// write per line, O_APPEND) and can be listed. This is the history; what can still be retried or
// dropped lives in the delivery queue (`pincer channels failures`).
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { OutboundMessage, SendFailure } from "../types.js";

/** One failed delivery. */
export interface DeliveryFailureRecord {
  ts: number;
  /** The part's id in the delivery queue (for `pincer channels failures retry|drop`). */
  id?: string;
  channel: string;
  accountId: string;
  peer: OutboundMessage["target"]["peer"];
  threadId?: string;
  sessionKey?: string;
  runId?: string;
  attempts: number;
  error: string;
  code?: string;
  /** True when it certainly did not arrive and a retry cannot double it. */
  retryable: boolean;
  /** True when nobody knows whether it arrived (timeout, crash mid-send): it is not retried. */
  uncertain?: boolean;
  text?: string;
  media?: string[];
}

/** Path of the failure log. */
export function deliveryFailuresPath(stateDir: string): string {
  return join(stateDir, "channels", "delivery-failures.jsonl");
}

/** Builds the record of a failed message. */
export function failureRecord(params: {
  ts: number;
  id?: string;
  channel: string;
  message: OutboundMessage;
  failure: SendFailure;
  attempts: number;
  sessionKey?: string;
  runId?: string;
}): DeliveryFailureRecord {
  const { message, failure } = params;
  const media = (message.media ?? []).map((item) => item.url ?? item.path ?? "");
  return {
    ts: params.ts,
    ...(params.id ? { id: params.id } : {}),
    channel: params.channel,
    accountId: message.target.accountId,
    peer: message.target.peer,
    ...(message.target.threadId ? { threadId: message.target.threadId } : {}),
    ...(params.sessionKey ? { sessionKey: params.sessionKey } : {}),
    ...(params.runId ? { runId: params.runId } : {}),
    attempts: params.attempts,
    error: failure.message,
    ...(failure.code ? { code: failure.code } : {}),
    retryable: failure.retryable && failure.uncertain !== true,
    ...(failure.uncertain ? { uncertain: true } : {}),
    ...(message.text ? { text: message.text } : {}),
    ...(media.length ? { media } : {}),
  };
}

/** Appends one record (a single append of one line: a crash leaves whole lines). */
export function appendDeliveryFailure(stateDir: string, record: DeliveryFailureRecord): void {
  const path = deliveryFailuresPath(stateDir);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  appendFileSync(path, `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

/** The last `limit` records (a torn last line is skipped). */
export function readDeliveryFailures(stateDir: string, limit = 100): DeliveryFailureRecord[] {
  const path = deliveryFailuresPath(stateDir);
  if (!existsSync(path)) return [];
  const records: DeliveryFailureRecord[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line) as DeliveryFailureRecord);
    } catch {
      // A line cut by a crash mid-append: skipped, the rest is intact.
    }
  }
  return records.slice(-limit);
}
