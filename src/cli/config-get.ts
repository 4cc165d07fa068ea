// `pincer config get <path>`: print one value of the resolved config.
import { getConfigValue } from "../config/index.js";
import { type CliContext, CliError, printJson, printLine } from "./context.js";
import { loadForCli } from "./load.js";
import type { CommandInput } from "./program.js";

/** Prints the value at `path`; strings print bare unless `--json`; exit 1 when the path is unset. */
export async function run(
  ctx: CliContext,
  { args, opts }: CommandInput<{ json?: boolean }>,
): Promise<number> {
  const [path = ""] = args;
  const loaded = loadForCli(ctx, { requireValid: false });
  const found = getConfigValue(loaded.config, path);
  if (!found.ok) throw new CliError(found.error);
  if (found.value === undefined) throw new CliError(`${path} is not set in ${loaded.path}`);
  if (opts.json || typeof found.value !== "string") printJson(ctx, found.value);
  else printLine(ctx, found.value);
  return 0;
}
