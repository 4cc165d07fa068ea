// `pincer skills [list]`: the skills an agent can use, and why some are not offered. Declarations only;
// `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** `pincer skills`. */
export const skillsGroup = {
  path: ["skills"],
  description: "list the skills an agent can use, and why some are not offered",
} as const;

/** Options of `pincer skills list`. */
export const listOptions = {
  agent: value("<id>", "agent whose workspace skills to include (default: the default agent)"),
  json: flag("print JSON"),
};

/** Every `pincer skills` command. */
export const skillsCommands = [
  defineCommand({
    path: ["skills", "list"],
    isDefault: true,
    description: "list skills with source (workspace, managed, bundled, extra), status and reason",
    options: listOptions,
    run: lazyRun(() => import("./list.js")),
  }),
];
