// The `pincer sessions` family: list, show, reset, delete and cleanup of conversation sessions, and
// export/import of a whole store between files and PostgreSQL.
// Declarations only; each `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** `pincer sessions`. */
export const sessionsGroup = {
  path: ["sessions"],
  description: "list, inspect, reset, delete and clean up conversation sessions",
} as const;

/** Options of `pincer sessions list`. */
export const listOptions = {
  agent: value("<id>", "agent whose sessions to list (default: the default agent)"),
  allAgents: flag("list the sessions of every agent"),
  active: value("<minutes>", "only sessions active in the last N minutes"),
  json: flag("print JSON"),
};
/** Options of `pincer sessions show`. */
export const showOptions = {
  agent: value("<id>", "agent owning a bare key (default: the key's agent, else the default)"),
  tail: value("<n>", "entries of the current branch to show (default 20)"),
  json: flag("print JSON"),
};
/** Options of `pincer sessions reset`. */
export const resetOptions = {
  agent: value("<id>", "agent owning a bare key"),
  json: flag("print JSON"),
};
/** Options of `pincer sessions delete`. */
export const deleteOptions = {
  agent: value("<id>", "agent owning a bare key"),
  json: flag("print JSON"),
};
/** Options of `pincer sessions cleanup`. */
export const cleanupOptions = {
  agent: value("<id>", "agent whose store to clean (default: the default agent)"),
  allAgents: flag("clean every agent's store"),
  dryRun: flag("only report what would be removed"),
  json: flag("print JSON"),
};

/** Options of `pincer sessions export`. */
export const exportOptions = {
  to: value(
    "<dir|postgres-url>",
    "a directory (written as <dir>/agents/<id>/sessions/) or postgres://…",
    {
      required: true,
    },
  ),
  agent: value("<id>", "only this agent's sessions (default: every agent)"),
  schema: value("<name>", "schema of a postgres:// destination (default pincer)"),
  force: flag("overwrite sessions and transcripts that already exist there"),
  json: flag("print JSON"),
};
/** Options of `pincer sessions import`. */
export const importOptions = {
  from: value("<dir|postgres-url>", "a state dir (its agents/<id>/sessions/) or postgres://…", {
    required: true,
  }),
  agent: value("<id>", "only this agent's sessions (default: every agent there)"),
  schema: value("<name>", "schema of a postgres:// source (default pincer)"),
  force: flag("overwrite sessions and transcripts that already exist in the configured store"),
  json: flag("print JSON"),
};

/** Every `pincer sessions` command, in help order. */
export const sessionsCommands = [
  defineCommand({
    path: ["sessions", "list"],
    isDefault: true,
    description: "list sessions, most recently active first (reads only sessions.json)",
    options: listOptions,
    run: lazyRun(() => import("./list.js")),
  }),
  defineCommand({
    path: ["sessions", "show"],
    description: "show a session's metadata and the last entries of its transcript",
    arguments: [
      {
        name: "key",
        description: "session key, e.g. main or agent:work:telegram:group:-100123",
        required: true,
      },
    ],
    options: showOptions,
    run: lazyRun(() => import("./show.js")),
  }),
  defineCommand({
    path: ["sessions", "reset"],
    description: "start a new session under KEY; the old transcript is kept as *.reset.<ts>",
    arguments: [{ name: "key", description: "session key", required: true }],
    options: resetOptions,
    run: lazyRun(() => import("./reset.js")),
  }),
  defineCommand({
    path: ["sessions", "delete"],
    description: "delete a session; its transcript is kept as *.deleted.<ts> until cleanup",
    arguments: [{ name: "key", description: "session key", required: true }],
    options: deleteOptions,
    run: lazyRun(() => import("./delete.js")),
  }),
  defineCommand({
    path: ["sessions", "cleanup"],
    description:
      "apply session.maintenance now: prune idle and excess sessions, remove old archives",
    options: cleanupOptions,
    run: lazyRun(() => import("./cleanup.js")),
  }),
  defineCommand({
    path: ["sessions", "export"],
    description:
      "copy the configured session store (files, or PostgreSQL with cluster.store) to a dir or postgres:// URL",
    options: exportOptions,
    run: lazyRun(() => import("./export.js")),
  }),
  defineCommand({
    path: ["sessions", "import"],
    description: "copy sessions from a state dir or postgres:// URL into the configured store",
    options: importOptions,
    run: lazyRun(() => import("./import.js")),
  }),
];
