// `pincer memory index [--agent ID] [--force] [--json]`: brings the agent's stored index up to date
// (only changed files are re-read; --force re-reads all; chunks without a vector are embedded when
// a provider is set) and says what changed.
import type { InputOf } from "../command.js";
import { type CliContext, displayPath, printJson, printLine } from "../command-context.js";
import type { indexOptions } from "./commands.js";
import { openMemory } from "./open.js";

/** Indexes the memory of one agent. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof indexOptions>,
): Promise<number> {
  const memory = openMemory(ctx, { agent: opts.agent, requireEnabled: true });
  const sync = await memory.index.sync({ force: opts.force === true });
  const failed = sync.notes.some((note) => note.startsWith("could not save"));
  if (opts.json) {
    printJson(ctx, { agentId: memory.agentId, path: memory.storePath, ...sync });
  } else {
    printLine(
      ctx,
      `Indexed ${sync.files} file(s), ${sync.chunks} chunk(s) of agent ${memory.agentId}: ` +
        `${sync.added} added, ${sync.updated} updated, ${sync.removed} removed → ${displayPath(memory.storePath, memory.home)}`,
    );
    const embeddings = memory.settings.embeddings;
    if (embeddings)
      printLine(
        ctx,
        `${sync.vectors ?? 0} of ${sync.chunks} chunk(s) embedded with ${embeddings.provider}/${embeddings.model}`,
      );
    for (const note of [...sync.notes, ...sync.problems]) ctx.stderr(`warning: ${note}\n`);
  }
  return failed ? 1 : 0;
}
