// The guard every adapter runs each platform update through: convert it to a `ChannelInbound`, then
// submit it, and turn whatever goes wrong into a verdict the adapter acts on instead of an exception
// that escapes its loop. A malformed update (the converter says what is wrong, or throws) is logged
// with its id, reported, and skipped: the adapter acknowledges it, so a restart never sees it again.
// A submit that keeps rejecting is retried a few times, then skipped, so no single update can crash,
// wedge or stall an account. Platform-free: adapters bring the conversion.
import type { ChannelAccountStatus, ChannelInbound, Logger } from "./types.js";

/** What converting one platform update gave. */
export type UpdateConversion =
  /** A message to hand on. */
  | { kind: "inbound"; inbound: ChannelInbound }
  /** Nothing to hand on (an edit, a service message, an update type the adapter does not use). */
  | { kind: "ignored" }
  /** Malformed: skipped, with a reason naming the field and what was wrong. */
  | { kind: "invalid"; reason: string };

/**
 * What the adapter does with an update: `advance` past it (acknowledge it, move the offset), or not
 * (`retry`: poll it again after a pause; `aborted`: the account is stopping, leave it for the restart).
 */
export type UpdateVerdict =
  | { advance: true; outcome: "submitted" | "ignored" | "skipped"; reason?: string }
  | { advance: false; outcome: "retry" | "aborted"; reason?: string };

/** Tries of one update whose submit keeps rejecting before it is skipped. */
export const DEFAULT_MAX_SUBMIT_ATTEMPTS = 5;

/** Longest reason kept in logs and status (a thrown message may quote a whole payload). */
const MAX_REASON_CHARS = 300;

/** Inputs for {@link createUpdateGuard}: one per running account. */
export interface UpdateGuardParams {
  log: Logger;
  /** The account context's `report`: skips become `lastError`. */
  report: (update: Partial<ChannelAccountStatus>) => void;
  /** The account context's `receive`. */
  submit: (inbound: ChannelInbound) => Promise<void>;
  now: () => number;
  /** The account's signal: once aborted, no submit starts. */
  signal: AbortSignal;
  maxSubmitAttempts?: number;
}

/** One update to guard: its platform id (for logs and the retry count) and its conversion. */
export interface GuardedUpdate<U> {
  id: string | number;
  update: U;
  /** Platform update → inbound; may be async (downloads) and may throw: both are contained. */
  convert: (update: U) => UpdateConversion | Promise<UpdateConversion>;
}

/** Runs updates through conversion and submit; never throws. */
export interface UpdateGuard {
  handle<U>(input: GuardedUpdate<U>): Promise<UpdateVerdict>;
}

/** Short text of a thrown value, for logs and status. */
export function describeError(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text;
}

function clip(reason: string): string {
  return reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS)}…` : reason;
}

/** Creates the guard of one account (it counts submit attempts per update id). */
export function createUpdateGuard(params: UpdateGuardParams): UpdateGuard {
  const maxAttempts = params.maxSubmitAttempts ?? DEFAULT_MAX_SUBMIT_ATTEMPTS;
  const attempts = new Map<string, number>();

  const skip = (id: string | number, reason: string, stack?: string): UpdateVerdict => {
    const fields: Record<string, unknown> = { updateId: id, reason };
    if (stack) fields.stack = stack;
    // A conversion that threw (a stack) is a converter bug worth an error; a refusal is a warning.
    if (stack) params.log.error(fields, "channel update skipped: malformed");
    else params.log.warn(fields, "channel update skipped: malformed");
    params.report({ lastError: `update ${id} skipped: ${reason}`, lastErrorAt: params.now() });
    return { advance: true, outcome: "skipped", reason };
  };

  return {
    async handle(input) {
      if (params.signal.aborted) return { advance: false, outcome: "aborted" };
      let conversion: UpdateConversion;
      try {
        conversion = await input.convert(input.update);
      } catch (err) {
        const stack = err instanceof Error ? err.stack : undefined;
        return skip(input.id, `conversion failed: ${describeError(err)}`, stack);
      }
      if (conversion.kind === "ignored") return { advance: true, outcome: "ignored" };
      if (conversion.kind === "invalid") return skip(input.id, clip(conversion.reason));
      if (params.signal.aborted) return { advance: false, outcome: "aborted" };
      const key = String(input.id);
      try {
        await params.submit(conversion.inbound);
        attempts.delete(key);
        return { advance: true, outcome: "submitted" };
      } catch (err) {
        const tries = (attempts.get(key) ?? 0) + 1;
        const error = clip(err instanceof Error ? err.message : String(err));
        const fields = { updateId: input.id, tries, error };
        params.report({ lastError: `receive: ${error}`, lastErrorAt: params.now() });
        if (tries >= maxAttempts) {
          attempts.delete(key);
          params.log.error(fields, "channel update skipped after repeated receive failures");
          return { advance: true, outcome: "skipped", reason: `receive failed ${tries} times` };
        }
        attempts.set(key, tries);
        params.log.warn(fields, "channel receive failed; the update will be polled again");
        return { advance: false, outcome: "retry", reason: error };
      }
    },
  };
}
