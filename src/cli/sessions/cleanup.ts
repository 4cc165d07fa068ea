// `pincer sessions cleanup [--agent ID|--all-agents] [--dry-run] [--json]`: apply `session.maintenance`
// now (prune idle and excess sessions, remove old archives). `--dry-run` only reports and needs no lock.
import type { ResolvedAgent } from "../../agents/roster.js";
import type { CleanupReport } from "../../sessions/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, displayPath, printJson, printLine, style } from "../command-context.js";
import { loadForCli } from "../load.js";
import { formatDuration } from "../time-format.js";
import type { cleanupOptions } from "./commands.js";
import { openConfiguredStore, selectAgents, withStateDirLock } from "./common.js";

/** One agent per store file (several agents may share one store via `session.store`). */
function uniqueStores(agents: ResolvedAgent[]): ResolvedAgent[] {
  const seen = new Set<string>();
  return agents.filter((agent) => {
    if (seen.has(agent.sessionStorePath)) return false;
    seen.add(agent.sessionStorePath);
    return true;
  });
}

/** Runs retention on the selected stores and prints what it did (or would do). */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof cleanupOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const agents = uniqueStores(selectAgents(loaded, opts));
  const dryRun = opts.dryRun === true;
  let reports: Array<CleanupReport & { agentId: string }>;
  if (dryRun) {
    reports = [];
    for (const agent of agents) {
      const store = await openConfiguredStore(ctx, { loaded, agent });
      try {
        reports.push({ agentId: agent.id, ...store.cleanup({ dryRun: true }) });
      } finally {
        if (!store.readOnly) await store.close(); // a PostgreSQL store: ends its pool
      }
    }
  } else {
    reports = await withStateDirLock(ctx, {
      loaded,
      command: "sessions cleanup",
      run: async (lock) => {
        const done: Array<CleanupReport & { agentId: string }> = [];
        for (const agent of agents) {
          const store = await openConfiguredStore(ctx, { loaded, agent, lock });
          try {
            done.push({ agentId: agent.id, ...store.cleanup({ dryRun: false }) });
          } finally {
            await store.close();
          }
        }
        return done;
      },
    });
  }
  if (opts.json) {
    printJson(ctx, { dryRun, stores: reports });
    return 0;
  }
  const s = style(ctx);
  const home = loaded.paths.home;
  for (const report of reports) {
    const stale = report.pruned.filter((p) => p.reason === "stale").length;
    const over = report.pruned.length - stale;
    const verb = dryRun ? "would prune" : "pruned";
    printLine(ctx, s.bold(`${report.agentId}: ${displayPath(report.storePath, home)}`));
    printLine(
      ctx,
      `  ${verb} ${report.pruned.length} sessions (${stale} idle > ${formatDuration(report.settings.pruneAfterMs)}, ${over} over the ${report.settings.maxEntries} cap); ${report.remaining} remain`,
    );
    for (const item of report.pruned.slice(0, 20)) {
      printLine(ctx, s.dim(`    ${item.key} (${item.reason})`));
    }
    if (report.pruned.length > 20)
      printLine(ctx, s.dim(`    … and ${report.pruned.length - 20} more`));
    printLine(
      ctx,
      `  ${dryRun ? "would remove" : "removed"} ${report.removedArchives.length} archived transcripts older than the retention window`,
    );
  }
  return 0;
}
