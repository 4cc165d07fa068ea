// `pincer agents add [name] [--non-interactive]` (OpenClaw's shape): a new isolated agent — its own workspace, agentDir and session
// store, an entry in agents.list and optional bindings — written only if the result validates.
import { mkdirSync } from "node:fs";
import { resolveSkipBootstrap } from "../../agents/bootstrap-config.js";
import { listAgentEntries, resolveAgent } from "../../agents/roster.js";
import { seedWorkspace } from "../../agents/workspace.js";
import type { ConfigEdit } from "../../config/index.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { normalizeAgentId } from "../../routing/ids.js";
import { checkChannelKnown, knownChannelIdsOf } from "../channels/ids.js";
import type { InputOf, OptionsOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson } from "../command-context.js";
import { applyConfigEdits } from "../config/edit.js";
import { loadForCli } from "../load.js";
import { checkWorkspaceFlag } from "../setup/workspace-guard.js";
import { bindEdits, parseBindSpec } from "./bind-spec.js";
import type { addOptions } from "./commands.js";

/** The agent name, or (no name given) a usage error naming what to pass: Pincer asks no questions,
 * so a missing name never waits on a terminal. */
function requireName(
  raw: string | undefined,
  opts: OptionsOf<typeof addOptions>,
  ctx: CliContext,
): string {
  if (raw?.trim()) return raw;
  const why = opts.nonInteractive
    ? "--non-interactive needs the agent name"
    : ctx.isTty
      ? "the agent name is required (pincer agents add asks no questions)"
      : "the agent name is required (not a terminal, nothing to ask)";
  throw new CliError(
    `${why}: pincer agents add <name> [--workspace DIR] [--model provider/model] [--agent-dir DIR] [--bind channel[:accountId]]…`,
    ExitCode.usage,
  );
}

/** Adds the agent to the config, then creates its directories and seeds its workspace (never
 * overwriting files already there). Refuses an id that already exists. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof addOptions>,
): Promise<number> {
  const rawId = requireName(args[0], opts, ctx);
  const id = normalizeAgentId(rawId);
  if (id !== rawId.trim()) {
    throw new CliError(
      `agent id "${rawId}" is not valid; use "${id}" (lowercase letters, digits, - and _)`,
      ExitCode.usage,
    );
  }
  const matches = opts.bind.map(parseBindSpec);
  const loaded = loadForCli(ctx, { requireValid: true });
  const channels = knownChannelIdsOf(loaded.config.channels);
  for (const spec of matches) checkChannelKnown(spec.channel, channels);
  const entry: Record<string, unknown> = { id };
  if (opts.workspace) {
    checkWorkspaceFlag(opts.workspace, loaded.paths);
    entry.workspace = opts.workspace;
  }
  if (opts.agentDir) entry.agentDir = opts.agentDir;
  if (opts.model) entry.model = opts.model;

  // Decided on the config as it is when written (another writer may add agents meanwhile).
  const edits = (current: unknown): ConfigEdit[] | { error: string } => {
    const cfg = current as OpenClawConfig;
    const entries = listAgentEntries(cfg);
    if (
      entries.some((existing) => normalizeAgentId(existing.id) === id) ||
      (entries.length === 0 && id === "main")
    ) {
      return { error: `agent "${id}" already exists in ${loaded.path}` };
    }
    const out: ConfigEdit[] = [];
    // With no roster the implicit `main` agent is the default; keep it so adding an agent
    // does not silently move unmatched traffic to the new one.
    if (entries.length === 0)
      out.push({ op: "append", path: "agents.list", value: { id: "main", default: true } });
    if (cfg.agents?.entries !== undefined) {
      const { id: _omit, ...rest } = entry;
      out.push({ op: "set", path: `agents.entries.${id}`, value: rest });
    } else {
      out.push({ op: "append", path: "agents.list", value: entry });
    }
    const bound = bindEdits({ cfg, agentId: id, specs: matches });
    if ("error" in bound) return bound;
    return [...out, ...bound.edits];
  };
  // Refused up front (clearer than a refused write) when it already exists now.
  const now = edits(loaded.config);
  if (!Array.isArray(now)) throw new CliError(now.error);

  const code = applyConfigEdits(ctx, {
    edits,
    summary: `added agent ${id}`,
    quiet: opts.json,
    loaded,
  });
  const after = loadForCli(ctx, { requireValid: true });
  const agent = resolveAgent({ cfg: after.config, paths: after.paths, agentId: id });
  mkdirSync(agent.agentDir, { recursive: true, mode: 0o700 });
  mkdirSync(agent.sessionsDir, { recursive: true, mode: 0o700 });
  const seeded = await seedWorkspace({
    dir: agent.workspace,
    skipBootstrap: resolveSkipBootstrap(after.config, id),
  });
  if (opts.json) {
    printJson(ctx, {
      ...agent,
      configPath: after.path,
      bindings: matches,
      workspaceFiles: { created: seeded.created, skipped: seeded.skipped },
    });
  } else {
    const files = seeded.bootstrapSkipped
      ? "not seeded (skipBootstrap is set)"
      : seeded.created.length > 0
        ? seeded.created.join(", ")
        : "all present, none created";
    ctx.stdout(
      `workspace: ${agent.workspace}\nfiles:     ${files}\nagentDir:  ${agent.agentDir}\nsessions:  ${agent.sessionsDir}\n`,
    );
    if (matches.length === 0)
      ctx.stdout(`no bindings yet: add one with --bind, or see: pincer agents route --help\n`);
  }
  return code;
}
