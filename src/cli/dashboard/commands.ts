// `pincer dashboard`: the Control UI URL with a token link, opened on a desktop. Declaration
// only; `run` loads on first call.
import { defineCommand, flag, lazyRun } from "../command.js";

/** Options of `pincer dashboard`; `open` stays undefined unless --open or --no-open is given. */
export const dashboardOptions = {
  open: flag("open a browser even without a terminal", { negation: "only print the URL" }),
  json: flag("print JSON"),
};

/** `pincer dashboard`. */
export const dashboardCommands = [
  defineCommand({
    path: ["dashboard"],
    description: "print the Control UI URL with a token link, and open it on a desktop",
    options: dashboardOptions,
    run: lazyRun(() => import("./dashboard.js")),
  }),
];
