// `pincer agents unbind [--agent ID] --bind <channel[:accountId]>… | --all [--json]`: removes an
// agent's channel bindings from `bindings[]` (OpenClaw's shape: `--all` or `--bind`, never both),
// through the comment-keeping config editor under the config lock.
import type { ConfigEdit } from "../../config/index.js";
import type { Binding } from "../../protocol/config/index.js";
import { normalizeAgentId } from "../../routing/ids.js";
import type { InputOf, OptionsOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson, printLine } from "../command-context.js";
import { applyConfigEdits } from "../config/edit.js";
import { loadForCli } from "../load.js";
import {
  bindingMatchesSpec,
  bindingsOf,
  deleteBindingEdits,
  formatBindSpec,
  parseBindSpec,
} from "./bind-spec.js";
import type { unbindOptions } from "./commands.js";
import { rosterAgentId } from "./target.js";

/** Indices of the bindings to remove, or an error naming a `--bind` the agent does not have. */
function selectBindings(params: {
  cfg: unknown;
  agentId: string;
  opts: OptionsOf<typeof unbindOptions>;
}): { indices: number[]; removed: Binding[] } | { error: string } {
  const bindings = bindingsOf(params.cfg);
  const mine = bindings
    .map((binding, index) => ({ binding, index }))
    .filter(({ binding }) => normalizeAgentId(binding.agentId) === params.agentId);
  if (params.opts.all)
    return { indices: mine.map((m) => m.index), removed: mine.map((m) => m.binding) };
  const picked = new Map<number, Binding>();
  for (const spec of params.opts.bind.map(parseBindSpec)) {
    const hits = mine.filter(({ binding }) => bindingMatchesSpec(binding, spec));
    if (hits.length === 0)
      return {
        error: `agent ${params.agentId} has no binding ${formatBindSpec(spec)} (see pincer agents bindings --agent ${params.agentId})`,
      };
    for (const hit of hits) picked.set(hit.index, hit.binding);
  }
  return { indices: [...picked.keys()], removed: [...picked.values()] };
}

/** Removes the bindings; one the agent does not have refuses the whole change (nothing written). */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof unbindOptions>,
): Promise<number> {
  if (opts.all && opts.bind.length > 0)
    throw new CliError("give --all or --bind, not both", ExitCode.usage);
  if (!opts.all && opts.bind.length === 0)
    throw new CliError(
      "--bind <channel[:accountId]> (repeatable) or --all is required",
      ExitCode.usage,
    );
  const loaded = loadForCli(ctx, { requireValid: true });
  const agentId = rosterAgentId(loaded.config, opts.agent);
  const preview = selectBindings({ cfg: loaded.config, agentId, opts });
  if ("error" in preview) throw new CliError(preview.error);
  let removed = preview.removed;
  if (preview.indices.length > 0) {
    applyConfigEdits(ctx, {
      edits: (current): ConfigEdit[] | { error: string } => {
        const result = selectBindings({ cfg: current, agentId, opts });
        if ("error" in result) return result;
        removed = result.removed;
        return deleteBindingEdits(result.indices);
      },
      summary: `unbound agent ${agentId}`,
      quiet: true,
      loaded,
    });
  }
  if (opts.json) {
    printJson(ctx, { agentId, removed, path: loaded.path });
    return 0;
  }
  if (removed.length === 0) printLine(ctx, `agent ${agentId} has no bindings`);
  for (const binding of removed)
    printLine(ctx, `unbound ${describeMatch(binding)} from ${agentId}`);
  return 0;
}

/** `telegram:ops`, or the match as JSON when it is more than channel and account. */
export function describeMatch(binding: Binding): string {
  const { channel, accountId, ...rest } = binding.match;
  const base = accountId === undefined ? channel : `${channel}:${accountId}`;
  return Object.keys(rest).length === 0 ? base : `${base} ${JSON.stringify(rest)}`;
}
