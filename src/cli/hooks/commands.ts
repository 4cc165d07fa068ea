// `pincer hooks list | info | check | enable | disable`: the internal hooks the gateway would load
// (hook folders and bundled hooks), why some would not run, and switching one on or off in the
// config (`hooks.internal.entries.<name>.enabled`). Declarations only; `run` loads on first call.
import { defineCommand, flag, lazyRun } from "../command.js";

/** `pincer hooks`. */
export const hooksGroup = {
  path: ["hooks"],
  description: "list, inspect, enable and disable internal hooks (HOOK.md folders, bundled hooks)",
} as const;

/** Options of `pincer hooks list`. */
export const listOptions = {
  eligible: flag("only hooks that would run (status ready)"),
  json: flag("print JSON"),
};

/** Options of `pincer hooks info` and `check`. */
export const jsonOptions = { json: flag("print JSON") };

const name = {
  name: "name",
  description: "hook name (as `pincer hooks list` shows it)",
  required: true,
};

/** Every `pincer hooks` command. */
export const hooksCommands = [
  defineCommand({
    path: ["hooks", "list"],
    isDefault: true,
    description:
      "list hooks with source (workspace, managed, bundled, extra), status, events and reason",
    options: listOptions,
    run: lazyRun(() => import("./list.js")),
  }),
  defineCommand({
    path: ["hooks", "info"],
    description: "show one hook: events, requirements, location, status",
    arguments: [name],
    options: jsonOptions,
    run: lazyRun(() => import("./info.js")),
  }),
  defineCommand({
    path: ["hooks", "check"],
    description: "summarize which hooks would run and what the others miss",
    options: jsonOptions,
    run: lazyRun(() => import("./check.js")),
  }),
  defineCommand({
    path: ["hooks", "enable"],
    description:
      "enable a hook (hooks.internal.entries.<name>.enabled, and hooks.internal.enabled)",
    arguments: [name],
    options: jsonOptions,
    run: lazyRun(() => import("./enable.js")),
  }),
  defineCommand({
    path: ["hooks", "disable"],
    description: "disable a hook (hooks.internal.entries.<name>.enabled: false)",
    arguments: [name],
    options: jsonOptions,
    run: lazyRun(() => import("./disable.js")),
  }),
];
