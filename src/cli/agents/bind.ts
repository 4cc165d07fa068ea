// `pincer agents bind [--agent ID] --bind <channel[:accountId]>… [--json]`: routes channels (or one
// account of a channel) to an agent in `bindings[]`, through the comment-keeping config editor under
// the config lock; a running gateway picks the change up on its config reload.
import type { ConfigEdit } from "../../config/index.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { checkChannelKnown, knownChannelIdsOf } from "../channels/ids.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson, printLine } from "../command-context.js";
import { applyConfigEdits } from "../config/edit.js";
import { loadForCli } from "../load.js";
import { bindEdits, formatBindSpec, parseBindSpec } from "./bind-spec.js";
import type { bindOptions } from "./commands.js";
import { rosterAgentId } from "./target.js";

/** Adds the bindings; one already routed to another agent refuses the whole change. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof bindOptions>): Promise<number> {
  if (opts.bind.length === 0)
    throw new CliError("--bind <channel[:accountId]> is required (repeatable)", ExitCode.usage);
  const specs = opts.bind.map(parseBindSpec);
  const loaded = loadForCli(ctx, { requireValid: true });
  const agentId = rosterAgentId(loaded.config, opts.agent);
  const channels = knownChannelIdsOf(loaded.config.channels);
  for (const spec of specs) checkChannelKnown(spec.channel, channels);
  const preview = bindEdits({ cfg: loaded.config, agentId, specs });
  if ("error" in preview) throw new CliError(preview.error);
  let outcome = preview;
  if (preview.edits.length > 0) {
    applyConfigEdits(ctx, {
      edits: (current): ConfigEdit[] | { error: string } => {
        const result = bindEdits({ cfg: current as OpenClawConfig, agentId, specs });
        if ("error" in result) return result;
        outcome = result;
        return result.edits;
      },
      summary: `bound ${preview.added.map(formatBindSpec).join(", ")} to agent ${agentId}`,
      quiet: true,
      loaded,
    });
  }
  if (opts.json) {
    printJson(ctx, {
      agentId,
      added: outcome.added,
      kept: outcome.kept,
      path: loaded.path,
    });
    return 0;
  }
  for (const spec of outcome.added) printLine(ctx, `bound ${formatBindSpec(spec)} → ${agentId}`);
  for (const spec of outcome.kept)
    printLine(ctx, `already bound: ${formatBindSpec(spec)} → ${agentId}`);
  if (outcome.added.length > 0) printLine(ctx, `in ${loaded.path}`);
  return 0;
}
