// The internal hook runner: handlers registered per event key (`command` for every command event,
// `command:new` for one action), run in registration order for each event. Every handler gets a time
// limit; one that throws or overruns is logged with its hook's name and skipped (the event goes on
// to the next handler), never fatal. What handlers push to `event.messages` stays on the event for
// the caller to deliver.
import type { Logger } from "../lib/logger.js";
import type { HookEventType, InternalHookEvent, InternalHookHandler } from "./types.js";

/** Default time one handler may take before the runner stops waiting for it. */
export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

/** A registered handler with the hook name used in logs. */
export interface RegisteredHookHandler {
  hook: string;
  handler: InternalHookHandler;
}

/** Inputs of {@link createHookRunner}. */
export interface HookRunnerParams {
  logger: Logger;
  /** Per-handler limit (default {@link DEFAULT_HOOK_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** The runner: register handlers, then trigger events. */
export interface HookRunner {
  /** Adds `handler` for `eventKey` (`type` or `type:action`); returns its unregister. */
  register(eventKey: string, entry: RegisteredHookHandler): () => void;
  /** Whether any handler listens to this type/action (callers skip building costly context). */
  has(type: HookEventType, action: string): boolean;
  /** Runs the handlers of the event's type, then of `type:action`; resolves when all are done. */
  trigger(event: InternalHookEvent): Promise<void>;
  /** `eventKey → hook names`, for logs and `hooks list`. */
  registrations(): Array<{ event: string; hook: string }>;
}

/** Builds an event with OpenClaw's shape (`timestamp` now, no messages yet). */
export function createHookEvent(params: {
  type: HookEventType;
  action: string;
  sessionKey: string;
  context?: Record<string, unknown>;
  now?: () => number;
}): InternalHookEvent {
  return {
    type: params.type,
    action: params.action,
    sessionKey: params.sessionKey,
    timestamp: new Date(params.now ? params.now() : Date.now()),
    messages: [],
    context: params.context ?? {},
  };
}

/** What {@link withTimeLimit} rejects with when the limit passes. */
export class HookTimeout extends Error {}

/** Runs `run`, rejecting with {@link HookTimeout} when it takes longer than `ms` (it is not stopped). */
export async function withTimeLimit<T>(run: () => T | Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HookTimeout(`did not finish within ${ms} ms`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([Promise.resolve().then(run), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Creates an empty runner (one per gateway). */
export function createHookRunner(params: HookRunnerParams): HookRunner {
  const handlers = new Map<string, RegisteredHookHandler[]>();
  const timeoutMs = params.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  return {
    register(eventKey, entry) {
      handlers.set(eventKey, [...(handlers.get(eventKey) ?? []), entry]);
      return () => {
        handlers.set(
          eventKey,
          (handlers.get(eventKey) ?? []).filter((candidate) => candidate !== entry),
        );
      };
    },
    has(type, action) {
      return Boolean(handlers.get(type)?.length || handlers.get(`${type}:${action}`)?.length);
    },
    async trigger(event) {
      const key = `${event.type}:${event.action}`;
      const list = [...(handlers.get(event.type) ?? []), ...(handlers.get(key) ?? [])];
      for (const { hook, handler } of list) {
        try {
          await withTimeLimit(() => handler(event), timeoutMs);
        } catch (err) {
          const slow = err instanceof HookTimeout;
          params.logger.warn(
            { hook, event: key, error: err instanceof Error ? err.message : String(err) },
            slow
              ? `hook ${hook} (${key}) timed out; skipped`
              : `hook ${hook} (${key}) failed; skipped`,
          );
        }
      }
    },
    registrations: () =>
      [...handlers.entries()].flatMap(([event, list]) => list.map(({ hook }) => ({ event, hook }))),
  };
}
