// Shared by the `pincer sessions …` commands: which agents, which session key, opening stores, and the
// state-dir lock that mutations need (reads never take it, so they work while a gateway runs).
import { listAgents, type ResolvedAgent } from "../../agents/roster.js";
import type { LoadedConfig } from "../../config/index.js";
import { createEntryLogger, type Logger } from "../../lib/logger.js";
import {
  normalizeAgentId,
  parseAgentSessionKey,
  resolveDefaultAgentId,
  toAgentStoreSessionKey,
} from "../../routing/index.js";
import {
  acquireStateDirLock,
  openSessionStore,
  type SessionEntry,
  type SessionStore,
  type SessionStoreApi,
  type StateDirLock,
  StateDirLockedError,
} from "../../sessions/index.js";
import { PgStoreError } from "../../sessions/postgres/connect.js";
import { openPgSessionStore } from "../../sessions/postgres/open.js";
import { type CliContext, CliError, ExitCode } from "../command-context.js";

/** Store warnings (recoveries, skipped lines) go to stderr; they never fail a command. Info is dropped. */
function cliSessionLogger(ctx: CliContext): Logger {
  return createEntryLogger((entry) => {
    if (entry.level === "warn") ctx.stderr(`warning: ${entry.msg}\n`);
  });
}

/** `--agent ID` / `--all-agents` as the sessions commands accept them. */
export interface AgentSelection {
  agent?: string;
  allAgents?: boolean;
}

/** The agents a command acts on: `--all-agents`, else `--agent`, else the default agent. */
export function selectAgents(loaded: LoadedConfig, selection: AgentSelection): ResolvedAgent[] {
  const agents = listAgents(loaded.config, loaded.paths);
  if (selection.agent !== undefined && selection.allAgents) {
    throw new CliError("use either --agent or --all-agents, not both", ExitCode.usage);
  }
  if (selection.allAgents) return agents;
  const id = normalizeAgentId(selection.agent ?? resolveDefaultAgentId(loaded.config));
  const agent = agents.find((candidate) => candidate.id === id);
  if (!agent) {
    throw new CliError(
      `unknown agent "${selection.agent ?? id}"; configured agents: ${agents.map((a) => a.id).join(", ")}`,
    );
  }
  return [agent];
}

/** A session key given on the command line, resolved to its agent and store key. */
export interface SessionTarget {
  agent: ResolvedAgent;
  /** The normalized store key (`main` → the agent's main key). */
  key: string;
  /** Keys to look up, in order (legacy stores may hold the raw key, e.g. `global`). */
  candidates: string[];
}

/** Normalizes a CLI session key like OpenClaw: `agent:<id>:…` names its agent, bare keys use --agent. */
export function resolveSessionTarget(
  loaded: LoadedConfig,
  params: { rawKey: string; agent?: string },
): SessionTarget {
  const raw = params.rawKey.trim();
  if (raw === "") throw new CliError("a session key is required", ExitCode.usage);
  const parsed = parseAgentSessionKey(raw);
  if (parsed && params.agent !== undefined && normalizeAgentId(params.agent) !== parsed.agentId) {
    throw new CliError(
      `session key ${raw} belongs to agent ${parsed.agentId}, not ${normalizeAgentId(params.agent)}`,
      ExitCode.usage,
    );
  }
  const agentOption = parsed?.agentId ?? params.agent;
  const [agent] = selectAgents(loaded, agentOption === undefined ? {} : { agent: agentOption });
  const key = toAgentStoreSessionKey({
    agentId: agent!.id,
    requestKey: raw,
    mainKey: loaded.config.session?.mainKey ?? null,
  });
  return { agent: agent!, key, candidates: [...new Set([key, raw, raw.toLowerCase()])] };
}

/** Opens an agent's store: read-only without a lock. */
export function openAgentStore(
  ctx: CliContext,
  params: { loaded: LoadedConfig; agent: ResolvedAgent; lock?: StateDirLock },
): SessionStore {
  const maintenance = params.loaded.config.session?.maintenance;
  return openSessionStore({
    storePath: params.agent.sessionStorePath,
    logger: cliSessionLogger(ctx),
    ...(params.lock ? { lock: params.lock } : {}),
    ...(maintenance ? { maintenance } : {}),
  });
}

/**
 * Opens an agent's store wherever the config keeps it: PostgreSQL with `cluster.store` (close it: that
 * ends its pool), else the files (read-only without a lock).
 */
export async function openConfiguredStore(
  ctx: CliContext,
  params: { loaded: LoadedConfig; agent: ResolvedAgent; lock?: StateDirLock },
): Promise<SessionStoreApi> {
  const { loaded, agent } = params;
  const cluster = loaded.config.cluster?.store;
  if (cluster?.kind !== "postgres") return openAgentStore(ctx, params);
  const maintenance = loaded.config.session?.maintenance;
  try {
    return await openPgSessionStore({
      config: cluster,
      agentId: agent.id,
      storePath: agent.sessionStorePath,
      logger: cliSessionLogger(ctx),
      ...(maintenance ? { maintenance } : {}),
    });
  } catch (err) {
    if (err instanceof PgStoreError) throw new CliError(err.message);
    throw err;
  }
}

/** The stored key a target refers to, or a CliError naming the store that lacks it. */
export function findSessionKey(store: SessionStoreApi, target: SessionTarget): string {
  const found = target.candidates.find((key) => store.has(key));
  if (!found) throw new CliError(`no session ${target.key} in ${store.storePath}`);
  return found;
}

/**
 * Runs a mutation holding the state-dir lock. A live gateway holding it makes the command fail with a
 * clear message instead of racing the gateway's in-memory index.
 */
export async function withStateDirLock<T>(
  ctx: CliContext,
  params: { loaded: LoadedConfig; command: string; run: (lock: StateDirLock) => Promise<T> },
): Promise<T> {
  let lock: StateDirLock;
  try {
    lock = acquireStateDirLock({
      stateDir: params.loaded.paths.stateDir,
      command: `pincer ${params.command}`,
      logger: cliSessionLogger(ctx),
    });
  } catch (err) {
    if (!(err instanceof StateDirLockedError)) throw err;
    throw new CliError(
      `${err.message}\n  another Pincer process (usually the gateway) owns this state dir; stop it before running "pincer ${params.command}"`,
    );
  }
  try {
    return await params.run(lock);
  } finally {
    lock.release();
  }
}

/** Kind shown in listings: the entry's chat type, else what the key says. */
export function sessionKind(key: string, entry: Readonly<SessionEntry>): string {
  if (entry.chatType) return entry.chatType;
  if (key === "global") return "global";
  if (/:group:/.test(key)) return "group";
  if (/:channel:/.test(key)) return "channel";
  return "direct";
}

/** Compact token count: 950, 14.2k, 1.3M. */
export function formatTokens(n: number | undefined): string {
  if (typeof n !== "number") return "-";
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}
