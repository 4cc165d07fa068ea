// `memory_search` and `memory_get`: ranked snippets from the agent's Markdown memory and confined
// line reads of it (src/memory). Offered unless `memorySearch.enabled` is false or the run is a
// sub-agent's; in a group, channel or other shared session they answer with OpenClaw's
// `disabled: true` result instead of reading anything (memory is private, like MEMORY.md).
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { type Static, Type } from "typebox";
import {
  embeddingIndexParams,
  type MemoryAccess,
  MemoryIndex,
  type MemoryIndexes,
  type MemoryIndexParams,
  type MemorySearchMode,
  type MemorySearchResult,
  type MemorySearchSettings,
  type MemorySlice,
  memoryRefusal,
  memoryStorePath,
  readMemorySlice,
} from "../../memory/index.js";
import { renameArgs } from "./args.js";
import { jsonResult, ToolError, throwIfAborted } from "./types.js";

const SearchParams = Type.Object({
  query: Type.String({ description: "Words to look for in the memory files." }),
  maxResults: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 50, description: "Most results to return." }),
  ),
  minScore: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1, description: "Lowest score (0..1) to return." }),
  ),
});
type SearchArgs = Static<typeof SearchParams>;

const GetParams = Type.Object({
  path: Type.String({ description: "A path memory_search returned (MEMORY.md, memory/…)." }),
  from: Type.Optional(Type.Integer({ minimum: 1, description: "First line (1-based)." })),
  lines: Type.Optional(Type.Integer({ minimum: 1, description: "Number of lines." })),
});
type GetArgs = Static<typeof GetParams>;

/** memory_search's result (OpenClaw's shape); `disabled` + `error` when the session may not read
 *  memory. `provider` is "bm25" for a full-text search, else the embedding provider (with `model`,
 *  `mode` and, when it fell back to text, `fallback`). */
export interface MemorySearchDetails {
  results: MemorySearchResult[];
  provider?: string;
  model?: string;
  mode?: MemorySearchMode["mode"];
  fallback?: string;
  disabled?: true;
  error?: string;
}

/** memory_get's result: the slice, or `disabled` + `error` in a shared session. */
export type MemoryGetDetails =
  | MemorySlice
  | { path: string; text: ""; disabled: true; error: string };

/** What the memory tools need from the run. */
export interface MemoryToolContext {
  agentId: string;
  workspaceDir: string;
  sessionKey: string | undefined;
  settings: MemorySearchSettings;
  access: MemoryAccess;
  /** The runtime's warm indexes; absent, each run starts from the persisted index. */
  indexes?: MemoryIndexes;
  /** Where the index is persisted (`<stateDir>/memory/<agentId>.json`); absent, memory only. */
  stateDir?: string;
  /** What `~` in a path stands for (the config's home). */
  home?: string;
  /** Characters memory_get returns at most. */
  maxChars: number;
}

function indexOf(ctx: MemoryToolContext): MemoryIndex {
  const params: MemoryIndexParams = {
    agentId: ctx.agentId,
    workspaceDir: ctx.workspaceDir,
    extraPaths: ctx.settings.extraPaths,
    chunking: ctx.settings.chunking,
    ...(ctx.stateDir ? { storePath: memoryStorePath(ctx.stateDir, ctx.agentId) } : {}),
    ...(ctx.home ? { home: ctx.home } : {}),
    ...embeddingIndexParams(ctx.settings),
  };
  return ctx.indexes ? ctx.indexes.get(params) : new MemoryIndex(params);
}

/** Creates `memory_search`. */
export function createMemorySearchTool(
  ctx: MemoryToolContext,
): AgentTool<typeof SearchParams, MemorySearchDetails> {
  return {
    name: "memory_search",
    label: "Memory Search",
    description: "Search MEMORY.md and memory/*.md: snippets with path, lines and score.",
    parameters: SearchParams,
    prepareArguments: renameArgs<SearchArgs>({ max_results: "maxResults", min_score: "minScore" }),
    async execute(_id, args, signal) {
      if (ctx.access !== "private") {
        const error = memoryRefusal(ctx.sessionKey);
        return jsonResult<MemorySearchDetails>({ results: [], disabled: true, error });
      }
      if (args.query.trim() === "") throw new ToolError("memory_search needs a non-empty query.");
      throwIfAborted(signal, "memory_search");
      const index = indexOf(ctx);
      const results = await index.search(args.query, {
        maxResults: args.maxResults ?? ctx.settings.maxResults,
        minScore: args.minScore ?? ctx.settings.minScore,
      });
      const embeddings = ctx.settings.embeddings;
      if (!embeddings) return jsonResult<MemorySearchDetails>({ results, provider: "bm25" });
      const { mode, note } = index.lastSearchMode();
      return jsonResult<MemorySearchDetails>({
        results,
        provider: embeddings.provider,
        model: embeddings.model,
        mode,
        ...(note ? { fallback: note } : {}),
      });
    },
  };
}

/** Creates `memory_get`. */
export function createMemoryGetTool(
  ctx: MemoryToolContext,
): AgentTool<typeof GetParams, MemoryGetDetails> {
  return {
    name: "memory_get",
    label: "Memory Get",
    description: "Read lines of a memory file (from, lines).",
    parameters: GetParams,
    prepareArguments: renameArgs<GetArgs>({ file_path: "path", from_line: "from" }),
    async execute(_id, args, signal) {
      if (ctx.access !== "private") {
        const error = memoryRefusal(ctx.sessionKey);
        return jsonResult<MemoryGetDetails>({ path: args.path, text: "", disabled: true, error });
      }
      throwIfAborted(signal, "memory_get");
      const read = await readMemorySlice({
        workspaceDir: ctx.workspaceDir,
        extraPaths: ctx.settings.extraPaths,
        path: args.path,
        ...(args.from !== undefined ? { from: args.from } : {}),
        ...(args.lines !== undefined ? { lines: args.lines } : {}),
        maxChars: ctx.maxChars,
        ...(ctx.home ? { home: ctx.home } : {}),
      });
      if (!read.ok) throw new ToolError(read.error);
      return jsonResult<MemoryGetDetails>(read.slice);
    },
  };
}
