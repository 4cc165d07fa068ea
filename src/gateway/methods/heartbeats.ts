// The heartbeat methods: `last-heartbeat` (operator.read) returns the last heartbeat event or
// null; `set-heartbeats` (operator.admin) turns every heartbeat on or off: `{enabled}` → `{ok, enabled}`.
import { defineMethod, ok } from "./method.js";

/** The heartbeat method group (the scheduler comes in through the method deps). */
export const heartbeatMethods = [
  defineMethod({
    name: "last-heartbeat",
    scope: "operator.read",
    uses: ["heartbeats"],
    handler: (_call, { heartbeats }) => ok(heartbeats.last() ?? null),
  }),
  defineMethod({
    name: "set-heartbeats",
    scope: "operator.admin",
    uses: ["heartbeats"],
    handler: ({ params }, { heartbeats }) => {
      heartbeats.setEnabled(params.enabled);
      return ok({ ok: true, enabled: heartbeats.enabled });
    },
  }),
];
