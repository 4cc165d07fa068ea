// `pincer config unset <path>`: remove one key, validated like `config set`.

import { applyConfigEdits } from "./config-edit.js";
import type { CliContext } from "./context.js";
import type { CommandInput } from "./program.js";

/** Removes the key at `path`; validates the result first, keeps a backup, writes atomically. */
export async function run(
  ctx: CliContext,
  { args, opts }: CommandInput<{ json?: boolean }>,
): Promise<number> {
  const [path = ""] = args;
  return applyConfigEdits(ctx, {
    edits: [{ op: "delete", path }],
    json: opts.json,
    summary: `removed ${path}`,
  });
}
