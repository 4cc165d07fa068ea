// `pincer sessions [list] [--agent ID|--all-agents] [--active MIN] [--json]`: sessions, most recently
// active first. Reads only sessions.json (+ journal), never transcripts, and never takes the lock.
import type { SessionStoreApi } from "../../sessions/index.js";
import type { InputOf } from "../command.js";
import {
  type CliContext,
  CliError,
  displayPath,
  ExitCode,
  printJson,
  printLine,
  style,
} from "../command-context.js";
import { loadForCli } from "../load.js";
import { formatAge } from "../time-format.js";
import type { listOptions } from "./commands.js";
import { formatTokens, openConfiguredStore, selectAgents, sessionKind } from "./common.js";

/** One listed session (JSON row). */
interface SessionRow {
  agentId: string;
  key: string;
  kind: string;
  sessionId: string;
  updatedAt: number;
  ageMs: number;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  contextTokens?: number;
  lastChannel?: string;
  lastTo?: string;
  label?: string;
  displayName?: string;
}

function parseActive(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const minutes = Number(raw);
  if (!Number.isFinite(minutes) || minutes <= 0) {
    throw new CliError(`--active expects a number of minutes, got "${raw}"`, ExitCode.usage);
  }
  return minutes;
}

function modelOf(entry: {
  model?: string;
  modelProvider?: string;
  modelOverride?: string;
}): string | undefined {
  if (entry.modelOverride) return entry.modelOverride;
  if (entry.model)
    return entry.modelProvider ? `${entry.modelProvider}/${entry.model}` : entry.model;
  return undefined;
}

/** Lists sessions of one agent, several, or all, newest first. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof listOptions>): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const activeMinutes = parseActive(opts.active);
  const agents = selectAgents(loaded, opts);
  const stores = new Map<string, SessionStoreApi>();
  const now = Date.now();
  const opened: SessionStoreApi[] = [];
  try {
    for (const agent of agents) {
      // PostgreSQL stores are per agent; files may be shared by several agents.
      const id = loaded.config.cluster?.store ? agent.id : agent.sessionStorePath;
      if (stores.has(id)) continue;
      const store = await openConfiguredStore(ctx, { loaded, agent });
      opened.push(store);
      stores.set(id, store);
    }
  } finally {
    // A PostgreSQL store holds its index in memory once opened: its pool is ended now.
    for (const store of opened) if (!store.readOnly) await store.close();
  }
  const sections = agents.map((agent) => {
    const id = loaded.config.cluster?.store ? agent.id : agent.sessionStorePath;
    const store = stores.get(id)!;
    const rows = store
      .list({ agentId: agent.id, ...(activeMinutes ? { activeMinutes } : {}) })
      .map(({ key, entry }): SessionRow => {
        const model = modelOf(entry);
        const pick = <K extends keyof SessionRow>(field: K, value: SessionRow[K] | undefined) =>
          value === undefined ? {} : { [field]: value };
        return {
          agentId: agent.id,
          key,
          kind: sessionKind(key, entry),
          sessionId: entry.sessionId,
          updatedAt: entry.updatedAt,
          ageMs: Math.max(0, now - entry.updatedAt),
          ...pick("model", model),
          ...pick("inputTokens", entry.inputTokens),
          ...pick("outputTokens", entry.outputTokens),
          ...pick("totalTokens", entry.totalTokens),
          ...pick("contextTokens", entry.contextTokens),
          ...pick("lastChannel", entry.lastChannel),
          ...pick("lastTo", entry.lastTo),
          ...pick("label", entry.label),
          ...pick("displayName", entry.displayName),
        };
      });
    return { agent, rows };
  });

  if (opts.json) {
    const sessions = sections.flatMap((section) => section.rows);
    printJson(ctx, {
      ...(sections.length === 1 ? { path: sections[0]!.agent.sessionStorePath } : {}),
      stores: sections.map(({ agent, rows }) => ({
        agentId: agent.id,
        path: agent.sessionStorePath,
        count: rows.length,
      })),
      count: sessions.length,
      activeMinutes: activeMinutes ?? null,
      sessions,
    });
    return 0;
  }
  const s = style(ctx);
  for (const { agent, rows } of sections) {
    const where = displayPath(agent.sessionStorePath, loaded.paths.home);
    const active = activeMinutes ? `, active in the last ${activeMinutes} min` : "";
    printLine(ctx, s.bold(`Sessions of ${agent.id} (${rows.length}${active}) — ${where}`));
    if (rows.length === 0) {
      printLine(ctx, s.dim("  no sessions"));
      continue;
    }
    const table = rows.map((row) => [
      row.kind,
      row.key,
      formatAge(row.ageMs),
      row.model ?? "-",
      row.contextTokens
        ? `${formatTokens(row.totalTokens)}/${formatTokens(row.contextTokens)}`
        : formatTokens(row.totalTokens),
      row.sessionId.slice(0, 8),
    ]);
    const header = ["KIND", "KEY", "AGE", "MODEL", "TOKENS", "SESSION"];
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      `  ${cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")}`;
    printLine(ctx, s.dim(line(header)));
    for (const cells of table) printLine(ctx, line(cells));
  }
  return 0;
}
