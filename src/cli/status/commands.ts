// `pincer health` and `pincer status`: what runs and how it is, at the top level of the tree. Their own
// family (not under gateway/) because `status` also reads local state when no gateway answers.
// Declarations only; each `run` loads on first call.
import { defineCommand, flag, lazyRun } from "../command.js";
import { gatewayClientOptions } from "../gateway-client-flags.js";

/** Options of `pincer health`. */
export const healthOptions = { ...gatewayClientOptions };
/** Options of `pincer status`. */
export const statusOptions = {
  all: flag("list every session and every available model"),
  ...gatewayClientOptions,
};

/** `pincer health` and `pincer status`. */
export const statusCommands = [
  defineCommand({
    path: ["health"],
    description: "ask the running gateway for its health summary",
    options: healthOptions,
    run: lazyRun(() => import("./health.js")),
  }),
  defineCommand({
    path: ["status"],
    description:
      "gateway, agents, sessions, channels and models at a glance (local state if no gateway)",
    options: statusOptions,
    run: lazyRun(() => import("./status.js")),
  }),
];
