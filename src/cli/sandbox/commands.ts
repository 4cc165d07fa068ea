// `pincer sandbox list | recreate | explain`: the sandboxes that exist (every backend), removing them
// so they are recreated on next use, and why a session is (or is not) sandboxed. Declarations only;
// each `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** `pincer sandbox`. */
export const sandboxGroup = {
  path: ["sandbox"],
  description: "list, recreate and explain the sandboxes tools run in",
} as const;

/** Options of `pincer sandbox list`. */
export const listOptions = {
  json: flag("print JSON"),
};

/** Options of `pincer sandbox recreate`. */
export const recreateOptions = {
  agent: value("<id>", "remove the sandboxes of this agent"),
  session: value("<key>", "remove the sandbox serving this session"),
  all: flag("remove every sandbox"),
  json: flag("print JSON"),
};

/** Options of `pincer sandbox explain`. */
export const explainOptions = {
  agent: value("<id>", "agent to explain (default: the session's agent, else the default agent)"),
  session: value("<key>", "session to explain (default: the agent's main session)"),
  json: flag("print JSON"),
};

/** Options of `pincer sandbox setup`. */
export const setupOptions = {
  image: value("<name>", "tag of the image to build (default openclaw-sandbox:bookworm-slim)"),
  base: value("<image>", "base image instead of debian:bookworm-slim (e.g. a registry mirror)"),
};

/** Every `pincer sandbox` command. */
export const sandboxCommands = [
  defineCommand({
    path: ["sandbox", "list"],
    isDefault: true,
    description: "list sandboxes of every backend: agent, scope, config hash, created, last used",
    options: listOptions,
    run: lazyRun(() => import("./list.js")),
  }),
  defineCommand({
    path: ["sandbox", "recreate"],
    description:
      "remove sandboxes (--agent, --session or --all); the next tool call recreates them",
    options: recreateOptions,
    run: lazyRun(() => import("./recreate.js")),
  }),
  defineCommand({
    path: ["sandbox", "explain"],
    description: "effective sandbox mode, scope, access, backend, image and tool policy, and why",
    options: explainOptions,
    run: lazyRun(() => import("./explain.js")),
  }),
  defineCommand({
    path: ["sandbox", "setup"],
    description: "build the Docker sandbox image from the Dockerfile shipped with Pincer",
    options: setupOptions,
    run: lazyRun(() => import("./setup.js")),
  }),
];
