// The `pincer memory` family: status, index and search of an agent's memory files, offline (the
// config and the workspace are read directly; no gateway needed). Declarations only; each `run`
// loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** `pincer memory`. */
export const memoryGroup = {
  path: ["memory"],
  description: "search an agent's memory files (MEMORY.md, memory/*.md) and manage their index",
} as const;

/** Options of `pincer memory status`. */
export const statusOptions = {
  agent: value("<id>", "agent whose memory to show (default: the default agent)"),
  json: flag("print JSON"),
};
/** Options of `pincer memory index`. */
export const indexOptions = {
  agent: value("<id>", "agent whose memory to index (default: the default agent)"),
  force: flag("re-read every file instead of only the changed ones"),
  json: flag("print JSON"),
};
/** Options of `pincer memory search`. */
export const searchOptions = {
  agent: value("<id>", "agent whose memory to search (default: the default agent)"),
  maxResults: value("<n>", "most results to show (default: memorySearch.query.maxResults, else 6)"),
  json: flag("print JSON"),
};

/** Every `pincer memory` command, in help order. */
export const memoryCommands = [
  defineCommand({
    path: ["memory", "status"],
    isDefault: true,
    description: "the memory files, their chunks and whether the stored index is current",
    options: statusOptions,
    run: lazyRun(() => import("./status.js")),
  }),
  defineCommand({
    path: ["memory", "index"],
    description: "bring the stored index up to date (--force: rebuild it)",
    options: indexOptions,
    run: lazyRun(() => import("./reindex.js")),
  }),
  defineCommand({
    path: ["memory", "search"],
    description: "rank memory snippets for a query, as memory_search does",
    arguments: [
      { name: "query", description: "words to look for", required: true, variadic: true },
    ],
    options: searchOptions,
    run: lazyRun(() => import("./search.js")),
  }),
];
