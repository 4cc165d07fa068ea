// `pincer hooks disable NAME`: see toggle.ts.
import type { InputOf } from "../command.js";
import type { CliContext } from "../command-context.js";
import type { jsonOptions } from "./commands.js";
import { toggleHook } from "./toggle.js";

/** Disables the hook. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof jsonOptions>,
): Promise<number> {
  return toggleHook(ctx, { name: args[0] ?? "", enabled: false, json: opts.json === true });
}
