// The session hooks: the session stores' lifecycle events (a new session id under a key, a reset,
// a deletion) as `session_start` / `session_end`, not awaited.
import { resolveAgentIdFromSessionKey } from "../routing/index.js";
import type { SessionLifecycleEvent } from "../sessions/index.js";
import type { PluginHookRunner } from "./hook-runner.js";

/** A store listener telling the session hooks; undefined when no plugin registered either. */
export function sessionLifecycleListener(
  hooks: PluginHookRunner,
): ((event: SessionLifecycleEvent) => void) | undefined {
  if (!hooks.has("session_start") && !hooks.has("session_end")) return undefined;
  return (event) => {
    const { sessionKey, sessionId } = event;
    const ctx = { agentId: resolveAgentIdFromSessionKey(sessionKey), sessionId, sessionKey };
    if (event.type === "start") {
      const resumed = event.resumedFrom ? { resumedFrom: event.resumedFrom } : {};
      void hooks.observe("session_start", { sessionId, sessionKey, ...resumed }, ctx);
    } else {
      void hooks.observe("session_end", { sessionId, sessionKey, reason: event.reason }, ctx);
    }
  };
}
