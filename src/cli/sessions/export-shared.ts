// Shared by `pincer sessions export` and `import`: the two ends of a copy (the configured store —
// `cluster.store` PostgreSQL, else each agent's sessions dir — and a state-dir-shaped directory or a
// postgres:// URL), the copy itself (under the state-dir lock when it writes the configured files) and
// its report.
import { dirname, resolve } from "node:path";
import { listAgents, resolveAgent } from "../../agents/roster.js";
import type { LoadedConfig } from "../../config/index.js";
import { normalizeAgentId } from "../../routing/index.js";
import { describePgUrl, PgStoreError } from "../../sessions/postgres/connect.js";
import { TransferConflictError, type TransferCounts } from "../../sessions/postgres/dump.js";
import {
  type StoreLocation,
  stateDirLocation,
  transferSessions,
} from "../../sessions/postgres/transfer.js";
import { type CliContext, CliError, printJson, printLine } from "../command-context.js";
import { withStateDirLock } from "./common.js";

/** The store the config uses: PostgreSQL with `cluster.store`, else the agents' sessions dirs. */
export function configuredLocation(loaded: LoadedConfig): StoreLocation {
  const store = loaded.config.cluster?.store;
  if (store?.kind === "postgres") return { kind: "postgres", config: store };
  const { config, paths } = loaded;
  return {
    kind: "files",
    label: paths.stateDir,
    sessionsDirOf: (agentId) =>
      dirname(resolveAgent({ cfg: config, paths, agentId }).sessionStorePath),
    agentIds: () => listAgents(config, paths).map((agent) => agent.id),
  };
}

/** `--to` / `--from`: a postgres:// URL (schema from `--schema`, default pincer) or a directory. */
export function parseLocation(spec: string, schema: string | undefined): StoreLocation {
  if (/^postgres(ql)?:\/\//i.test(spec)) {
    return {
      kind: "postgres",
      config: { kind: "postgres", url: spec, ...(schema ? { schema } : {}) },
    };
  }
  if (schema !== undefined) throw new CliError("--schema applies to a postgres:// URL only");
  return stateDirLocation(resolve(spec));
}

function describe(location: StoreLocation): string {
  return location.kind === "postgres"
    ? `postgres://${describePgUrl(location.config.url)} (schema ${location.config.schema ?? "pincer"})`
    : location.label;
}

/** Runs a copy and prints its counts; conflicts and connection errors become CLI errors. */
export async function runTransfer(
  ctx: CliContext,
  params: {
    loaded: LoadedConfig;
    from: StoreLocation;
    to: StoreLocation;
    /** The configured store is the destination (files: the state-dir lock is taken). */
    intoConfigured: boolean;
    agent?: string;
    force: boolean;
    json: boolean;
    verb: "Exported" | "Imported";
  },
): Promise<number> {
  const { from, to } = params;
  const agentIds = params.agent === undefined ? undefined : [normalizeAgentId(params.agent)];
  const copy = () =>
    transferSessions({ from, to, force: params.force, ...(agentIds ? { agentIds } : {}) });
  let counts: TransferCounts;
  try {
    counts =
      params.intoConfigured && to.kind === "files"
        ? await withStateDirLock(ctx, {
            loaded: params.loaded,
            command: "sessions import",
            run: () => copy(),
          })
        : await copy();
  } catch (err) {
    if (err instanceof TransferConflictError || err instanceof PgStoreError)
      throw new CliError(err.message);
    throw err;
  }
  if (params.json) {
    printJson(ctx, { from: describe(from), to: describe(to), ...counts });
    return 0;
  }
  printLine(
    ctx,
    `${params.verb} ${counts.sessions} sessions and ${counts.transcripts} transcripts (${counts.entries} entries, ${counts.archived} archived) of ${counts.agents} agents`,
  );
  printLine(ctx, `  from ${describe(from)}`);
  printLine(ctx, `  to   ${describe(to)}`);
  if (counts.skippedLines > 0)
    printLine(ctx, `  ${counts.skippedLines} unreadable transcript lines skipped`);
  return 0;
}
