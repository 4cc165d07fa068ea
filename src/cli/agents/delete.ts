// `pincer agents delete <id> [--force] [--json]` (OpenClaw's shape): removes the agent's roster entry
// (`agents.list[]` or `agents.entries.<id>`) and every binding routed to it, through the
// comment-keeping config editor under the config lock; a running gateway drops it on its reload.
// Its workspace, agentDir and sessions stay on disk (OpenClaw moves them to the desktop Trash; Pincer
// deletes no data) and are printed. The default agent, or the only one, needs --force.
import { listAgentEntries, resolveAgent, resolveDefaultAgentId } from "../../agents/roster.js";
import { type ConfigEdit, formatConfigPath } from "../../config/index.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { normalizeAgentId } from "../../routing/ids.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, printJson, printLine } from "../command-context.js";
import { applyConfigEdits } from "../config/edit.js";
import { loadForCli } from "../load.js";
import { bindingsOf, deleteBindingEdits } from "./bind-spec.js";
import type { deleteOptions } from "./commands.js";
import { rosterAgentId } from "./target.js";

/** The edits that remove agent `id` and its bindings from `cfg`, with how many bindings went. */
function deleteEdits(
  cfg: OpenClawConfig,
  id: string,
): { edits: ConfigEdit[]; bindings: number } | { error: string } {
  const edits: ConfigEdit[] = [];
  const entries = cfg.agents?.entries;
  if (entries && typeof entries === "object") {
    const key = Object.keys(entries).find((k) => normalizeAgentId(entries[k]?.id ?? k) === id);
    if (key === undefined) return { error: `agent ${id} is no longer in the config` };
    edits.push({ op: "delete", path: formatConfigPath(["agents", "entries", key]) });
  } else {
    const list = Array.isArray(cfg.agents?.list) ? cfg.agents.list : [];
    const index = list.findIndex((entry) => normalizeAgentId(entry?.id) === id);
    if (index === -1) return { error: `agent ${id} is no longer in the config` };
    edits.push({ op: "delete", path: `agents.list[${index}]` });
  }
  const mine = bindingsOf(cfg)
    .map((binding, index) => ({ binding, index }))
    .filter(({ binding }) => normalizeAgentId(binding.agentId) === id)
    .map(({ index }) => index);
  return { edits: [...deleteBindingEdits(mine), ...edits], bindings: mine.length };
}

/** Why deleting `id` needs --force, if it does: it is the only agent, or the default one. */
function needsForce(cfg: OpenClawConfig, id: string): string | undefined {
  const entries = listAgentEntries(cfg);
  if (entries.length === 1)
    return `agent ${id} is the only agent: without it the implicit "main" agent (default workspace) takes over`;
  if (resolveDefaultAgentId(cfg) === id) {
    const rest = entries.filter((entry) => normalizeAgentId(entry.id) !== id);
    const next = normalizeAgentId((rest.find((entry) => entry.default === true) ?? rest[0])?.id);
    return `agent ${id} is the default agent (unmatched traffic and CLI commands go to it); without it ${next} becomes the default`;
  }
  return undefined;
}

/** Deletes one agent from the config; its files stay where they are. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof deleteOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  if (listAgentEntries(loaded.config).length === 0)
    throw new CliError(
      `${loaded.path} has no agents roster: the only agent is the implicit "main"; nothing to delete`,
    );
  const id = rosterAgentId(loaded.config, args[0] ?? "");
  const why = needsForce(loaded.config, id);
  if (why && !opts.force) throw new CliError(`${why}; pass --force to delete it anyway`);
  const agent = resolveAgent({ cfg: loaded.config, paths: loaded.paths, agentId: id });
  let removedBindings = 0;
  applyConfigEdits(ctx, {
    edits: (current) => {
      const result = deleteEdits(current as OpenClawConfig, id);
      if ("error" in result) return result;
      removedBindings = result.bindings;
      return result.edits;
    },
    summary: `deleted agent ${id}`,
    quiet: true,
    loaded,
  });
  const after = loadForCli(ctx, { requireValid: false });
  const kept = {
    workspace: agent.workspace,
    agentDir: agent.agentDir,
    sessionsDir: agent.sessionsDir,
  };
  const defaultAgentId = resolveDefaultAgentId(after.config);
  if (opts.json) {
    printJson(ctx, {
      deleted: true,
      agentId: id,
      removedBindings,
      defaultAgentId,
      kept,
      path: loaded.path,
    });
    return 0;
  }
  printLine(
    ctx,
    `deleted agent ${id} from ${loaded.path} (and ${removedBindings} binding${removedBindings === 1 ? "" : "s"}); default agent: ${defaultAgentId}`,
  );
  printLine(ctx, "kept on disk (remove them yourself when no longer needed):");
  printLine(
    ctx,
    `  workspace: ${kept.workspace}\n  agentDir:  ${kept.agentDir}\n  sessions:  ${kept.sessionsDir}`,
  );
  return 0;
}
