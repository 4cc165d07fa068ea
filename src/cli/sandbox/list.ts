// `pincer sandbox list [--json]`: every sandbox of every backend, with agent, scope, config hash,
// created / last used, and whether the current config still matches it.
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine, style } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { listOptions } from "./commands.js";
import { listAllSandboxes } from "./instances.js";

function when(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");
}

/** Lists sandboxes; a backend that cannot be reached is reported on stderr (exit 0). */
export async function run(ctx: CliContext, { opts }: InputOf<typeof listOptions>): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const { sandboxes, problems } = await listAllSandboxes({ cfg: loaded.resolved, env: ctx.env });
  for (const problem of problems) ctx.stderr(`warning: ${problem.backend}: ${problem.error}\n`);
  if (opts.json) {
    printJson(ctx, { sandboxes, problems });
    return 0;
  }
  const s = style(ctx);
  printLine(ctx, s.bold(`Sandboxes (${sandboxes.length})`));
  if (sandboxes.length === 0) printLine(ctx, "No sandboxes exist yet (one is made on first use).");
  for (const box of sandboxes) {
    const state = box.current ? s.green("current") : s.yellow("stale: config changed");
    printLine(ctx, `- ${s.cyan(box.scopeKey)} [${box.backend}] agent ${box.agentId} ${state}`);
    printLine(
      ctx,
      `    hash ${box.configHash}  created ${when(box.createdAt)}  used ${when(box.lastUsedAt)}`,
    );
    printLine(ctx, s.dim(`    id   ${box.id}`));
  }
  return 0;
}
