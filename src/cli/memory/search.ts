// `pincer memory search QUERY [--agent ID] [--max-results N] [--json]`: what memory_search would
// return for the agent (the same index and ranking; the stored index is brought up to date).
import type { InputOf } from "../command.js";
import {
  type CliContext,
  CliError,
  ExitCode,
  printJson,
  printLine,
  style,
} from "../command-context.js";
import type { searchOptions } from "./commands.js";
import { openMemory } from "./open.js";

function parseMaxResults(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new CliError(
      `--max-results expects a whole number of 1 or more, got "${raw}"`,
      ExitCode.usage,
    );
  return n;
}

/** Searches the memory of one agent. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof searchOptions>,
): Promise<number> {
  const query = args.join(" ").trim();
  if (query === "") throw new CliError("memory search needs a query", ExitCode.usage);
  const maxResults = parseMaxResults(opts.maxResults);
  const memory = openMemory(ctx, { agent: opts.agent, requireEnabled: true });
  const results = await memory.index.search(query, {
    maxResults: maxResults ?? memory.settings.maxResults,
    minScore: memory.settings.minScore,
  });
  const sync = memory.index.lastSync();
  for (const note of [...(sync?.notes ?? []), ...(sync?.problems ?? [])])
    ctx.stderr(`warning: ${note}\n`);
  if (opts.json) {
    printJson(ctx, { agentId: memory.agentId, query, results });
    return 0;
  }
  if (results.length === 0) {
    printLine(
      ctx,
      `No memory matches "${query}" (agent ${memory.agentId}, ${sync?.files ?? 0} file(s) searched).`,
    );
    return 0;
  }
  const s = style(ctx);
  for (const result of results) {
    printLine(
      ctx,
      `${s.bold(result.score.toFixed(4))}  ${result.path}:${result.startLine}-${result.endLine}`,
    );
    for (const line of result.snippet.split("\n")) printLine(ctx, `    ${line}`);
  }
  return 0;
}
