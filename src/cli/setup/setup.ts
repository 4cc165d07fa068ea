// `pincer setup [--workspace DIR] [--agent ID]`: the first command a new user runs. Creates the
// config if missing (optionally pointing the agent at a workspace), then seeds the workspace with
// the bootstrap templates. Never overwrites anything, so running it again is safe and a no-op.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { type SeedWorkspaceResult, seedWorkspace } from "../../agents/workspace.js";
import {
  commitConfigWrite,
  expandHome,
  findAgent,
  formatConfigIssues,
  formatConfigPath,
  type LoadedConfig,
  lookupAgent,
  type ResolvedAgent,
  resolveConfig,
  validateConfig,
} from "../../config/index.js";
import { DEFAULT_AGENT_ID, normalizeAgentId } from "../../routing/ids.js";
import type { InputOf } from "../command.js";
import {
  asBlock,
  type CliContext,
  CliError,
  displayPath,
  ExitCode,
  printJson,
} from "../command-context.js";
import { applyConfigEdits } from "../config/edit.js";
import { loadForCli } from "../load.js";
import type { setupOptions } from "./commands.js";
import { checkWorkspaceFlag } from "./workspace-guard.js";

/** What setup did to the config file: created it, set a workspace path in it, or neither. */
interface ConfigOutcome {
  created: boolean;
  /** The config path set to the new workspace, when `--workspace` changed it. */
  workspaceKey?: string;
  backupPath?: string;
}

/** Picks the agent to set up: `--agent` (must be configured, or the implicit `main`) or the default. */
function pickAgentId(loaded: LoadedConfig, requested: string | undefined): string {
  if (requested === undefined) return loaded.resolved.defaultAgentId;
  const id = normalizeAgentId(requested);
  if (!findAgent(loaded.resolved, id)) {
    throw new CliError(
      `agent "${id}" is not configured in ${loaded.path}; add it first: pincer agents add ${id}`,
    );
  }
  return id;
}

/** The value stored for `--workspace`: `~/...` kept as typed, anything else made absolute; `/`, the
 * home dir, the state dir (or a folder holding them) refused. */
export function workspaceValue(raw: string, paths: { home: string; stateDir: string }): string {
  const trimmed = raw.trim();
  if (trimmed === "") throw new CliError("--workspace needs a directory", ExitCode.usage);
  checkWorkspaceFlag(trimmed, paths);
  return trimmed === "~" || trimmed.startsWith("~/") ? trimmed : expandHome(trimmed, paths.home);
}

/** Where an agent's workspace is configured in the file: its entry (`agents.list[i]` or
 * `agents.entries.<key>`, as the resolved roster located it), else `agents.defaults` without a roster. */
export function workspaceKeyFor(loaded: LoadedConfig, agentId: string): string {
  const source = findAgent(loaded.resolved, agentId)?.source ?? [];
  if (source.length === 0) return "agents.defaults.workspace";
  return formatConfigPath([...source, "workspace"]);
}

/** A small commented config that validates; `workspace` is written uncommented when given. */
function initialConfigText(params: { workspace?: string; defaultWorkspace: string }): string {
  const line = params.workspace
    ? `workspace: ${JSON.stringify(params.workspace)},`
    : `// workspace: ${JSON.stringify(params.defaultWorkspace)},`;
  return `// Pincer config (OpenClaw-compatible openclaw.json). JSON5: comments and trailing commas are fine.
// Check it with \`pincer config validate\`; change it with \`pincer config set <path> <value>\`.
{
  agents: {
    defaults: {
      // Working directory and bootstrap files (AGENTS.md, SOUL.md, ...) of the default agent.
      ${line}
    },
  },
}
`;
}

/** Creates the missing config file, validated before it is written; undefined when another writer
 * created it meanwhile (it is then left as that writer made it). */
function createConfig(
  ctx: CliContext,
  params: { loaded: LoadedConfig; workspace?: string },
): ConfigOutcome | undefined {
  const { loaded, workspace } = params;
  const implicit = lookupAgent(
    resolveConfig({ config: {}, paths: loaded.paths }),
    DEFAULT_AGENT_ID,
  );
  const value = { agents: { defaults: workspace ? { workspace } : {} } };
  const verdict = validateConfig(value, { paths: loaded.paths });
  if (!verdict.valid) {
    ctx.stderr(
      asBlock(
        formatConfigIssues({ path: loaded.path, issues: verdict.issues }, { color: ctx.color }),
      ),
    );
    throw new CliError(`not written: the new config for ${loaded.path} would be invalid`);
  }
  mkdirSync(dirname(loaded.path), { recursive: true, mode: 0o700 });
  const defaultWorkspace = displayPath(implicit.workspace, loaded.paths.home);
  const text = initialConfigText({ ...(workspace ? { workspace } : {}), defaultWorkspace });
  // Under the config write lock, expecting no file: one created meanwhile is never overwritten.
  const written = commitConfigWrite({
    configPath: loaded.path,
    baseHash: "",
    compute: () => ({ ok: true, text }),
  });
  if (!written.ok && written.reason === "stale") return undefined;
  if (!written.ok) {
    const why = written.reason === "invalid" ? "it would be invalid" : written.message;
    throw new CliError(`not written: ${loaded.path}: ${why}`);
  }
  return workspace
    ? { created: true, workspaceKey: "agents.defaults.workspace" }
    : { created: true };
}

/** Points the agent at `--workspace` in an existing config, unless it already resolves there. */
function updateWorkspace(
  ctx: CliContext,
  params: { loaded: LoadedConfig; agentId: string; workspace: string },
): ConfigOutcome {
  const { loaded, agentId, workspace } = params;
  const current = lookupAgent(loaded.resolved, agentId);
  if (current.workspace === expandHome(workspace, loaded.paths.home)) return { created: false };
  const key = workspaceKeyFor(loaded, agentId);
  applyConfigEdits(ctx, {
    edits: [{ op: "set", path: key, value: workspace }],
    summary: `set ${key}`,
    quiet: true,
    loaded,
  });
  return { created: false, workspaceKey: key, backupPath: `${loaded.path}.bak` };
}

function printText(
  ctx: CliContext,
  params: {
    loaded: LoadedConfig;
    config: ConfigOutcome;
    agent: ResolvedAgent;
    seeded: SeedWorkspaceResult;
  },
): void {
  const { loaded, config, agent, seeded } = params;
  const home = loaded.paths.home;
  const shown = displayPath(loaded.path, home);
  const lines: string[] = [];
  if (config.created) lines.push(`config:    created ${shown}`);
  else if (config.workspaceKey) lines.push(`config:    set ${config.workspaceKey} in ${shown}`);
  else lines.push(`config:    ${shown} (exists)`);
  if (config.backupPath) lines.push(`backup:    ${displayPath(config.backupPath, home)}`);
  const dirNote = seeded.dirCreated ? ", created" : "";
  lines.push(`workspace: ${displayPath(agent.workspace, home)} (agent ${agent.id}${dirNote})`);
  if (seeded.bootstrapSkipped) {
    lines.push("files:     not seeded (skipBootstrap is set)");
  } else if (seeded.created.length > 0) {
    lines.push(`created:   ${seeded.created.join(", ")}`);
    if (seeded.skipped.length > 0) lines.push(`kept:      ${seeded.skipped.join(", ")}`);
  }
  const changed = config.created || config.workspaceKey || seeded.dirCreated;
  if (!changed && seeded.created.length === 0) {
    lines.push("nothing to do: the config and the workspace files already exist");
  } else if (seeded.created.includes("BOOTSTRAP.md")) {
    lines.push("next: edit USER.md and SOUL.md, or let the agent do it on its first run");
  }
  ctx.stdout(`${lines.join("\n")}\n`);
}

/** Creates the config if missing, applies `--workspace`, and seeds the agent's workspace. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof setupOptions>,
): Promise<number> {
  const before = loadForCli(ctx, { requireValid: true });
  const agentId = pickAgentId(before, opts.agent);
  const workspace =
    opts.workspace !== undefined ? workspaceValue(opts.workspace, before.paths) : undefined;
  let config: ConfigOutcome = { created: false };
  const created = before.exists
    ? undefined
    : createConfig(ctx, { loaded: before, ...(workspace ? { workspace } : {}) });
  if (created) config = created;
  else if (workspace !== undefined) {
    // The config exists (or another writer just created it): set the workspace in it.
    const current = before.exists ? before : loadForCli(ctx, { requireValid: true });
    config = updateWorkspace(ctx, { loaded: current, agentId, workspace });
  }
  const after = loadForCli(ctx, { requireValid: true });
  const agent = lookupAgent(after.resolved, agentId);
  const seeded = await seedWorkspace({ dir: agent.workspace, skipBootstrap: agent.skipBootstrap });
  if (opts.json) {
    printJson(ctx, {
      configPath: after.path,
      configCreated: config.created,
      configKeySet: config.workspaceKey ?? null,
      agentId,
      workspace: agent.workspace,
      workspaceCreated: seeded.dirCreated,
      created: seeded.created,
      skipped: seeded.skipped,
      bootstrapSkipped: seeded.bootstrapSkipped,
    });
  } else {
    printText(ctx, { loaded: after, config, agent, seeded });
  }
  return ExitCode.ok;
}
