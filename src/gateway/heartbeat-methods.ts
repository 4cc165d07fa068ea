// The heartbeat methods: `last-heartbeat` (operator.read) returns the last heartbeat event or
// null; `set-heartbeats` (operator.admin) turns every heartbeat on or off: `{enabled}` → `{ok, enabled}`.
import { type MethodHandler, ok } from "./context.js";
import type { HeartbeatScheduler } from "./heartbeat.js";

/** Handlers bound to one scheduler, keyed by method name. */
export function heartbeatMethods(scheduler: HeartbeatScheduler): Record<string, MethodHandler> {
  return {
    "last-heartbeat": () => ok(scheduler.last() ?? null),
    "set-heartbeats": (call) => {
      scheduler.setEnabled((call.params as { enabled: boolean }).enabled);
      return ok({ ok: true, enabled: scheduler.enabled });
    },
  };
}
