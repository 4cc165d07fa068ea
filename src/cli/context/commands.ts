// `pincer context`: what a run would send to the model, and how big each part is. Declaration only;
// `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** Options of `pincer context`. */
export const contextOptions = {
  agent: value("<id>", "agent (default: the default agent)"),
  session: value("<key>", "session key (default: the agent's main session)"),
  detail: flag("break down every prompt section, file, tool schema and skill"),
  json: flag("print JSON"),
};

/** `pincer context`. */
export const contextCommands = [
  defineCommand({
    path: ["context"],
    description: "what a run would send to the model, and how big each part is",
    options: contextOptions,
    run: lazyRun(() => import("./report.js")),
  }),
];
