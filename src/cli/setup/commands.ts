// `pincer setup`: create the config if missing and seed the agent's workspace. Declaration only; the
// `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** Options of `pincer setup`. */
export const setupOptions = {
  workspace: value("<dir>", "workspace directory; written to the config"),
  agent: value("<id>", "agent to set up (default: the default agent)"),
  json: flag("print JSON"),
};

/** `pincer setup`. */
export const setupCommand = defineCommand({
  path: ["setup"],
  description: "create the config if missing and seed the agent's workspace (never overwrites)",
  options: setupOptions,
  run: lazyRun(() => import("./setup.js")),
});
