// `pincer logs`: the gateway's log file, last lines or --follow across rotations. Declaration only;
// `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** Options of `pincer logs`. */
export const logsOptions = {
  limit: value("<n>", "lines to show (default 200)"),
  maxBytes: value("<n>", "bytes to read from the end of the file (default 250000)"),
  follow: flag("keep printing new lines until interrupted (Ctrl-C)"),
  interval: value("<ms>", "poll interval while following (default 1000)"),
  json: flag("print the JSON lines as written (secrets masked like the console)"),
  plain: flag("plain text without colour"),
  localTime: flag("show times in local time (the default)"),
  utc: flag("show times in UTC"),
};

/** `pincer logs`. */
export const logsCommands = [
  defineCommand({
    path: ["logs"],
    description: "show the gateway's log file (last lines; --follow tails it across rotations)",
    options: logsOptions,
    run: lazyRun(() => import("./logs.js")),
  }),
];
