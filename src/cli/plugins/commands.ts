// `pincer plugins list | info`: the plugins the gateway would load, whether they load, and what each
// registers. Declarations only; `run` loads on first call.
import { defineCommand, flag, lazyRun } from "../command.js";

/** `pincer plugins`. */
export const pluginsGroup = {
  path: ["plugins"],
  description: "list the plugins the gateway loads and what each registers",
} as const;

/** Options of `pincer plugins list` and `info`. */
export const pluginsOptions = {
  json: flag("print JSON"),
};

/** Every `pincer plugins` command. */
export const pluginsCommands = [
  defineCommand({
    path: ["plugins", "list"],
    isDefault: true,
    description: "list plugins: id, status (loaded, error, disabled), source, what they register",
    options: pluginsOptions,
    run: lazyRun(() => import("./list.js")),
  }),
  defineCommand({
    path: ["plugins", "info"],
    description: "show one plugin: source, status, error, hooks, tools, commands, methods",
    arguments: [{ name: "id", description: "plugin id", required: true }],
    options: pluginsOptions,
    run: lazyRun(() => import("./info.js")),
  }),
];
