// Idempotency of the turn methods (`agent`, `chat.send`): one key space per method and one answer
// for a duplicate, from the dedupe cache — while the turn is in flight, what it was accepted as with
// `status: "in_flight"`; once it ended, its stored final. A key is in flight only between its
// journal line and its settle (turn-journal-run.ts settles every started turn, failed ones too), so
// no key answers `in_flight` forever.

import type { DedupeCache } from "./idempotency-cache.js";
import { type MethodResult, ok } from "./methods/method.js";

/** The methods whose requests carry an idempotencyKey that names their turn. */
export type IdempotentMethod = "agent" | "chat";

/** The dedupe (and turn journal) key of a request: `agent:<key>` / `chat:<key>`. */
export function turnKey(method: IdempotentMethod, idempotencyKey: string): string {
  return `${method}:${idempotencyKey}`;
}

/** What a duplicate of `key` gets, or undefined when the key is new (or expired, or was never
 *  accepted): then the request starts its turn. */
export function answerDuplicate(
  dedupe: DedupeCache<Record<string, unknown>, Record<string, unknown>>,
  key: string,
): MethodResult | undefined {
  const seen = dedupe.get(key);
  if (seen?.state === "in_flight") return ok({ ...seen.info, status: "in_flight" });
  if (seen?.state === "done") return ok(seen.final);
  return undefined;
}
