// Applying the session lifecycle policies where a message gets its session: an expired session, or
// a direct session whose message starts with a reset trigger, starts a new session id (the old
// transcript archived as `<file>.reset.<ts>`, as `sessions.reset` does) before the message lands.
import type { SessionConfig } from "../protocol/config/session.js";
import {
  checkSessionReset,
  hostTimeZone,
  matchResetTrigger,
  sessionResetKind,
} from "./reset-policy.js";
import type { SessionStoreApi } from "./store-api.js";

/** What {@link applySessionResetPolicy} did before the turn. */
export interface AppliedSessionReset {
  /** Why the session was reset, if it was. */
  reset?: "daily" | "idle" | "trigger";
  /** The message the turn carries: the text after a matched trigger, else the message unchanged. */
  message: string;
  /** A message that was only a trigger: answer it like `/new`, without a model call. */
  bareTrigger: boolean;
  /** The session id the turn runs in, when the key has a session. */
  sessionId?: string;
  previousSessionId?: string;
}

/**
 * Resets the session of `sessionKey` when its policy expired, or when the message starts with a
 * reset trigger in a direct session (group and thread sessions reset by trigger only through the
 * `/new` command, which checks who sent it). A key without a session is left alone.
 */
export function applySessionResetPolicy(params: {
  store: SessionStoreApi;
  sessionKey: string;
  session: SessionConfig | undefined;
  /** The turn's message; absent: only the time policies are applied. */
  message?: string;
  /** Defaults to the store's clock. */
  now?: number;
  /** Zone of the daily hour, or how to read it (only a daily policy asks); defaults to the host's. */
  timeZone?: string | (() => string);
}): AppliedSessionReset {
  const { store, sessionKey } = params;
  const message = params.message ?? "";
  const trigger =
    params.message !== undefined && sessionResetKind(sessionKey) === "direct"
      ? matchResetTrigger(params.session?.resetTriggers, params.message)
      : undefined;
  const turnMessage = trigger ? trigger.rest : message;
  const entry = store.get(sessionKey);
  if (!entry) return { message: turnMessage, bareTrigger: trigger?.rest === "" };
  const verdict = trigger
    ? undefined
    : checkSessionReset({
        session: params.session,
        sessionKey,
        entry,
        now: params.now ?? store.now(),
        timeZone: params.timeZone ?? hostTimeZone,
      });
  const reason = trigger ? "trigger" : verdict?.expired ? verdict.reason : undefined;
  if (!reason) return { message, bareTrigger: false, sessionId: entry.sessionId };
  const next = store.reset(sessionKey).entry;
  return {
    reset: reason,
    message: turnMessage,
    bareTrigger: trigger?.rest === "",
    sessionId: next.sessionId,
    previousSessionId: entry.sessionId,
  };
}
