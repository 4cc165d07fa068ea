// `pincer agents bindings [--agent ID] [--json]`: the routing rules of `bindings[]` in config order
// (the order routing breaks ties in), optionally of one agent.
import { normalizeAgentId } from "../../routing/ids.js";
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine, style } from "../command-context.js";
import { loadForCli } from "../load.js";
import { bindingsOf } from "./bind-spec.js";
import type { bindingsOptions } from "./commands.js";
import { rosterAgentId } from "./target.js";
import { describeMatch } from "./unbind.js";

/** Lists bindings with their index in `bindings[]`. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof bindingsOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: false });
  const agentId = opts.agent ? rosterAgentId(loaded.config, opts.agent) : undefined;
  const rows = bindingsOf(loaded.config)
    .map((binding, index) => ({ index, ...binding }))
    .filter((row) => agentId === undefined || normalizeAgentId(row.agentId) === agentId);
  if (opts.json) {
    printJson(ctx, { ...(agentId ? { agentId } : {}), bindings: rows });
    return 0;
  }
  const s = style(ctx);
  printLine(ctx, s.bold(`Bindings (${rows.length})`));
  if (rows.length === 0)
    printLine(ctx, s.dim("  none: unmatched traffic goes to the default agent"));
  for (const row of rows) printLine(ctx, `  [${row.index}] ${describeMatch(row)} → ${row.agentId}`);
  return 0;
}
