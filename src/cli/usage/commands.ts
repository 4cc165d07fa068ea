// `pincer usage`: tokens and cost per agent, session, model or day from the usage log, with each
// agent's budget standing. Declarations only; `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** Options of `pincer usage`. */
export const usageOptions = {
  agent: value("<id>", "only this agent (default: every agent)"),
  since: value("<span>", "how far back: 7d (default), 24h, 30m or a number of days"),
  by: value("<group>", "rows per agent (default), session, model or day"),
  json: flag("print JSON"),
};

/** Every `pincer usage` command. */
export const usageCommands = [
  defineCommand({
    path: ["usage"],
    description: "show tokens and cost per agent, session, model or day, and budget standing",
    options: usageOptions,
    run: lazyRun(() => import("./usage.js")),
  }),
];
