// `pincer memory status [--agent ID] [--json]`: the agent's memory files with their chunk counts,
// and whether the stored index matches the disk (read-only: nothing is written).
import type { MemorySearchSettings, MemorySyncReport } from "../../memory/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, displayPath, printJson, printLine, style } from "../command-context.js";
import type { statusOptions } from "./commands.js";
import { openMemory } from "./open.js";

function indexState(sync: { start: string; added: number; updated: number; removed: number }) {
  if (sync.start === "built")
    return "not built yet (pincer memory index, or the first memory_search, builds it)";
  if (sync.start === "rebuilt") return "out of date: it will be rebuilt (pincer memory index)";
  const changed = sync.added + sync.updated + sync.removed;
  if (changed === 0) return "up to date";
  return `${changed} file(s) changed since it was written (${sync.added} new, ${sync.updated} edited, ${sync.removed} gone); the next search or pincer memory index updates it`;
}

/** The embedding model and how many stored chunks it has embedded; undefined without one. */
function embeddingsOf(settings: MemorySearchSettings, sync: MemorySyncReport) {
  const embeddings = settings.embeddings;
  if (!embeddings) return undefined;
  return {
    provider: embeddings.provider,
    model: embeddings.model,
    vectors: sync.vectors ?? 0,
    ...(embeddings.keyProblem ? { problem: embeddings.keyProblem } : {}),
  };
}

/** Shows the memory of one agent. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof statusOptions>,
): Promise<number> {
  const memory = openMemory(ctx, { agent: opts.agent, readOnly: true });
  const sync = await memory.index.sync();
  const files = memory.index.listFiles();
  const state = indexState(sync);
  if (opts.json) {
    printJson(ctx, {
      agentId: memory.agentId,
      enabled: memory.settings.enabled,
      workspace: memory.workspaceDir,
      extraPaths: memory.settings.extraPaths,
      index: {
        path: memory.storePath,
        state,
        start: sync.start,
        added: sync.added,
        updated: sync.updated,
        removed: sync.removed,
      },
      files: files.map((file) => ({ path: file.shown, chunks: file.chunks, bytes: file.size })),
      chunks: sync.chunks,
      embeddings: embeddingsOf(memory.settings, sync),
      notes: sync.notes,
      problems: sync.problems,
    });
    return 0;
  }
  const s = style(ctx);
  const home = memory.home;
  printLine(
    ctx,
    s.bold(
      `Memory of agent ${memory.agentId} (${memory.settings.enabled ? "on" : "off: memorySearch.enabled is false"})`,
    ),
  );
  printLine(ctx, `workspace: ${displayPath(memory.workspaceDir, home)}`);
  const extra = memory.settings.extraPaths;
  printLine(ctx, `extra paths: ${extra.length > 0 ? extra.join(", ") : "none"}`);
  printLine(ctx, `index: ${displayPath(memory.storePath, home)}: ${state}`);
  printLine(ctx, `${files.length} file(s), ${sync.chunks} chunk(s)`);
  const embeddings = embeddingsOf(memory.settings, sync);
  printLine(
    ctx,
    embeddings
      ? `embeddings: ${embeddings.provider}/${embeddings.model}, ${embeddings.vectors} of ${sync.chunks} chunk(s) embedded${embeddings.problem ? ` (${embeddings.problem})` : ""}`
      : "embeddings: none (full-text search; set memorySearch.provider to add them)",
  );
  if (files.length > 0) {
    const width = Math.max(4, ...files.map((file) => file.shown.length));
    printLine(ctx, s.dim(`${"FILE".padEnd(width)}  CHUNKS  BYTES`));
    for (const file of files)
      printLine(ctx, `${file.shown.padEnd(width)}  ${String(file.chunks).padEnd(6)}  ${file.size}`);
  }
  for (const note of [...sync.notes, ...sync.problems]) ctx.stderr(`warning: ${note}\n`);
  return 0;
}
