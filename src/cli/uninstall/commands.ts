// `pincer uninstall`: removes the gateway service, the state dir and/or the workspaces; the CLI stays.
// Declaration only; `run` loads on first call.
import { defineCommand, flag, lazyRun } from "../command.js";

/** Options of `pincer uninstall`. */
export const uninstallOptions = {
  service: flag("remove the gateway service (systemd user unit)"),
  state: flag("remove the state dir (config, sessions, credentials); keeps workspaces"),
  workspace: flag("remove the configured agent workspaces"),
  all: flag("service, state and workspaces"),
  yes: flag("do not ask for confirmation"),
  nonInteractive: flag("never prompt (needs --yes for anything destructive)"),
  dryRun: flag("only list what would be removed"),
  json: flag("print JSON"),
};

/** `pincer uninstall`. */
export const uninstallCommands = [
  defineCommand({
    path: ["uninstall"],
    description: "remove the gateway service, the state dir and/or the workspaces (the CLI stays)",
    options: uninstallOptions,
    run: lazyRun(() => import("./uninstall.js")),
  }),
];
