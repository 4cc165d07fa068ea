// Failed deliveries are never lost: each is appended as one JSON line to
// `<stateDir>/channels/delivery-failures.jsonl` (one write per line, O_APPEND) and can be listed.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { OutboundMessage, SendFailure } from "../types.js";

/** One failed delivery. */
export interface DeliveryFailureRecord {
  ts: number;
  channel: string;
  accountId: string;
  peer: OutboundMessage["target"]["peer"];
  threadId?: string;
  sessionKey?: string;
  runId?: string;
  attempts: number;
  error: string;
  code?: string;
  retryable: boolean;
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
    channel: params.channel,
    accountId: message.target.accountId,
    peer: message.target.peer,
    ...(message.target.threadId ? { threadId: message.target.threadId } : {}),
    ...(params.sessionKey ? { sessionKey: params.sessionKey } : {}),
    ...(params.runId ? { runId: params.runId } : {}),
    attempts: params.attempts,
    error: failure.message,
    ...(failure.code ? { code: failure.code } : {}),
    retryable: failure.retryable,
    ...(message.text ? { text: message.text } : {}),
    ...(media.length ? { media } : {}),
  };
}

/** Appends one record (a single append of one line: a crash leaves whole lines). */
export function appendDeliveryFailure(stateDir: string, record: DeliveryFailureRecord): void {
  const path = deliveryFailuresPath(stateDir);
  mkdirSync(dirname(path), { recursive: true });
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
