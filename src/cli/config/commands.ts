// The `pincer config` family: get, set, unset, validate and file, on openclaw.json. Declarations
// only; each `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** `pincer config`. */
export const configGroup = {
  path: ["config"],
  description: "read, change and validate openclaw.json",
} as const;

/** Options of `pincer config get`. */
export const getOptions = {
  json: flag("print JSON"),
  showSecrets: flag("print secrets instead of __REDACTED__"),
};
/** Options of `pincer config set`. */
export const setOptions = {
  string: flag("store the value as a string without parsing"),
  strictJson: flag("the value must parse as JSON/JSON5 (no fallback to a string)"),
  merge: flag("merge an object value into the object at the path (keys not given stay)"),
  replace: flag("replace the value at the path whole (the default)"),
  dryRun: flag("validate the change exactly as a write would, writing nothing"),
  batchJson: value("<json>", 'several values in one write: [{"path": …, "value": …}, …]'),
  batchFile: value("<file>", "like --batch-json, read from a file"),
  json: flag("print JSON"),
};
/** Options of `pincer config unset`. */
export const unsetOptions = { json: flag("print JSON") };
/** Options of `pincer config validate`. */
export const validateOptions = { json: flag("print JSON") };
/** Options of `pincer config file`. */
export const fileOptions = { json: flag("print JSON") };

/** Every `pincer config` command, in help order. */
export const configCommands = [
  defineCommand({
    path: ["config", "get"],
    description: "print the value at a config path, e.g. agents.list[0].model",
    arguments: [{ name: "path", description: "dot path", required: true }],
    options: getOptions,
    run: lazyRun(() => import("./get.js")),
  }),
  defineCommand({
    path: ["config", "set"],
    description: "set a value (parsed as JSON5, else taken as a string); validates before writing",
    arguments: [
      { name: "path", description: "dot path" },
      { name: "value", description: "new value" },
    ],
    options: setOptions,
    run: lazyRun(() => import("./set.js")),
  }),
  defineCommand({
    path: ["config", "unset"],
    description: "remove the key at a config path; validates before writing",
    arguments: [{ name: "path", description: "dot path", required: true }],
    options: unsetOptions,
    run: lazyRun(() => import("./unset.js")),
  }),
  defineCommand({
    path: ["config", "validate"],
    description: "check the config and print every problem with its file and line",
    options: validateOptions,
    run: lazyRun(() => import("./validate.js")),
  }),
  defineCommand({
    path: ["config", "file"],
    description: "print the path of the active config file",
    options: fileOptions,
    run: lazyRun(() => import("./file.js")),
  }),
];
