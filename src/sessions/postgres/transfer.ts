// Copying session stores between the file layout and PostgreSQL (either way, or files to files): every
// agent's dump is read first, conflicts are checked for all of them before anything is written (a
// refusal writes nothing), then each agent is written (PostgreSQL: one transaction per agent).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { ClusterStoreConfig } from "../../protocol/config/index.js";
import { openPgBackend, type PgSessionBackend } from "./backend.js";
import { type AgentDump, countDumps, TransferConflictError, type TransferCounts } from "./dump.js";
import { filesConflicts, readFilesDump, writeFilesDump } from "./dump-files.js";
import { pgConflicts, readPgDump, writePgDump } from "./dump-pg.js";

/** One end of a copy: sessions dirs per agent, or a PostgreSQL store. */
export type StoreLocation =
  | {
      kind: "files";
      /** What to call it in messages. */
      label: string;
      sessionsDirOf: (agentId: string) => string;
      /** The agents it holds (a source) or knows (the configured store). */
      agentIds: () => string[];
    }
  | { kind: "postgres"; config: ClusterStoreConfig };

/** A state-dir-shaped directory: `<dir>/agents/<id>/sessions/`. */
export function stateDirLocation(dir: string): StoreLocation {
  const agentsDir = join(dir, "agents");
  return {
    kind: "files",
    label: dir,
    sessionsDirOf: (agentId) => join(agentsDir, agentId, "sessions"),
    agentIds: () =>
      existsSync(agentsDir)
        ? readdirSync(agentsDir)
            .filter((id) => existsSync(join(agentsDir, id, "sessions", "sessions.json")))
            .sort()
        : [],
  };
}

/** Inputs of {@link transferSessions}. */
export interface TransferParams {
  from: StoreLocation;
  to: StoreLocation;
  /** Only these agents (default: every agent the source holds). */
  agentIds?: string[];
  force: boolean;
}

async function readAll(
  from: StoreLocation,
  agentIds: string[] | undefined,
  pg: PgSessionBackend | undefined,
): Promise<{ dumps: AgentDump[]; skipped: number }> {
  const dumps: AgentDump[] = [];
  let skipped = 0;
  if (from.kind === "postgres") {
    const ids = agentIds ?? (await pg!.agentIds());
    for (const id of ids) {
      const dump = await readPgDump(pg!, id);
      if (dump.entries.length > 0 || dump.transcripts.length > 0) dumps.push(dump);
    }
    return { dumps, skipped };
  }
  for (const id of agentIds ?? from.agentIds()) {
    const read = readFilesDump({ agentId: id, sessionsDir: from.sessionsDirOf(id) });
    if (!read) continue;
    dumps.push(read.dump);
    skipped += read.skipped;
  }
  return { dumps, skipped };
}

/** Copies sessions and transcripts; TransferConflictError (nothing written) when some exist and not `force`. */
export async function transferSessions(params: TransferParams): Promise<TransferCounts> {
  const { from, to, force } = params;
  const source =
    from.kind === "postgres" ? await openPgBackend({ config: from.config }) : undefined;
  let target: PgSessionBackend | undefined;
  try {
    target = to.kind === "postgres" ? await openPgBackend({ config: to.config }) : undefined;
    const { dumps, skipped } = await readAll(from, params.agentIds, source);
    if (!force) {
      const conflicts: string[] = [];
      for (const dump of dumps) {
        if (target) conflicts.push(...(await pgConflicts(target, dump)));
        else if (to.kind === "files")
          conflicts.push(...filesConflicts(dump, to.sessionsDirOf(dump.agentId)));
      }
      if (conflicts.length > 0) {
        const where = target ? target.where : to.kind === "files" ? to.label : "";
        throw new TransferConflictError(where, conflicts);
      }
    }
    for (const dump of dumps) {
      if (target) await writePgDump({ backend: target, dump, force });
      else if (to.kind === "files")
        writeFilesDump({ dump, sessionsDir: to.sessionsDirOf(dump.agentId), force });
    }
    return countDumps(dumps, skipped);
  } finally {
    await source?.close();
    await target?.close();
  }
}
