// Shared by the `pincer models auth …` commands: the chosen agent (legacy credential files imported
// first, each import reported on stderr), a checked provider id, and the state dir's paths.
import type { LoadedConfig, ResolvedAgent } from "../../config/index.js";
import { importLegacyAuth } from "../../runtime/models/auth-import.js";
import {
  type AuthCredential,
  type AuthProfileStore,
  readAuthStore,
  writeAuthStore,
} from "../../runtime/models/auth-store.js";
import {
  closeMatches,
  listKnownProviders,
  normalizeProviderId,
} from "../../runtime/models/index.js";
import { withAuthStoreLock } from "../../runtime/models/refresh-lock.js";
import { selectAgent } from "../agent-select.js";
import { type CliContext, CliError, ExitCode } from "../command-context.js";
import { loadForCli } from "../load.js";

/** An agent picked with `--agent` whose legacy credentials are already in its auth-profiles.json. */
export interface AuthAgent {
  loaded: LoadedConfig;
  agentId: string;
  agent: ResolvedAgent;
}

/** Imports the agent's legacy auth.json (and, for the default agent, credentials/oauth.json). */
export async function importLegacyForAgent(
  ctx: CliContext,
  params: { loaded: LoadedConfig; agent: ResolvedAgent },
): Promise<void> {
  const { loaded, agent } = params;
  const report = await importLegacyAuth({
    agentDir: agent.agentDir,
    ...(agent.isDefault ? { stateDir: loaded.paths.stateDir } : {}),
    now: Date.now(),
    pid: ctx.pid,
  });
  for (const notice of report.notices) ctx.stderr(`${notice}\n`);
  for (const error of report.errors) ctx.stderr(`warning: ${error}\n`);
}

/** Loads the config, selects `--agent` (default: the default agent) and imports its legacy files. */
export async function openAuthAgent(
  ctx: CliContext,
  agentOpt: string | undefined,
): Promise<AuthAgent> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const { agentId, agent } = selectAgent(loaded, agentOpt);
  await importLegacyForAgent(ctx, { loaded, agent });
  return { loaded, agentId, agent };
}

/** `--provider` normalized; an empty or unknown one is an error with a did-you-mean. */
export function checkProvider(loaded: LoadedConfig, raw: string | undefined): string {
  if (!raw?.trim()) throw new CliError("--provider is required", ExitCode.usage);
  const provider = normalizeProviderId(raw);
  const known = listKnownProviders(loaded.config);
  if (known.includes(provider)) return provider;
  const near = closeMatches(provider, known);
  const hint = near.length
    ? `; did you mean ${near.join(" or ")}?`
    : " (add it under models.providers first)";
  throw new CliError(`unknown provider "${raw}"${hint}`);
}

/** Read-modify-write of the agent's store under its credential lock (so it never interleaves with a
 *  gateway's OAuth refresh); an unreadable store or a lock held too long is a CliError. */
export async function updateAgentStore(
  ctx: CliContext,
  params: { agentDir: string; command: string },
  mutate: (store: AuthProfileStore) => void,
): Promise<string> {
  const lock = { agentDir: params.agentDir, pid: ctx.pid, command: params.command };
  type Written = { ok: true; path: string } | { ok: false; error: string };
  const locked = await withAuthStoreLock(lock, async (): Promise<Written> => {
    const read = readAuthStore(params.agentDir);
    if (read.error) return { ok: false, error: `refusing to rewrite ${read.path}: ${read.error}` };
    mutate(read.store);
    return { ok: true, path: writeAuthStore(params.agentDir, read.store) };
  });
  if (!locked.ok) throw new CliError(locked.error);
  if (!locked.value.ok) throw new CliError(locked.value.error);
  return locked.value.path;
}

/** Adds or replaces one profile in `store` and clears its failure state (a new secret starts healthy). */
export function setProfile(
  store: AuthProfileStore,
  params: { profileId: string; profile: AuthCredential },
): void {
  store.profiles[params.profileId] = { ...params.profile };
  if (store.usageStats?.[params.profileId]) delete store.usageStats[params.profileId];
}
