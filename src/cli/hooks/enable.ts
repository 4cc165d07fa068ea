// `pincer hooks enable NAME`: see toggle.ts.
import type { InputOf } from "../command.js";
import type { CliContext } from "../command-context.js";
import type { jsonOptions } from "./commands.js";
import { toggleHook } from "./toggle.js";

/** Enables the hook. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof jsonOptions>,
): Promise<number> {
  return toggleHook(ctx, { name: args[0] ?? "", enabled: true, json: opts.json === true });
}
