// `pincer config unset <path>`: remove one key, validated like `config set`.

import type { InputOf } from "../command.js";
import type { CliContext } from "../command-context.js";
import type { unsetOptions } from "./commands.js";
import { applyConfigEdits } from "./edit.js";

/** Removes the key at `path`; validates the result first, keeps a backup, writes atomically. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof unsetOptions>,
): Promise<number> {
  const [path = ""] = args;
  return applyConfigEdits(ctx, {
    edits: [{ op: "delete", path }],
    json: opts.json,
    summary: `removed ${path}`,
  });
}
