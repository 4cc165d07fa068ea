// `pincer config get <path> [--json] [--show-secrets]`: print one value of the resolved config. Secrets
// (env values, API keys, header values, tokens, passwords, ...) print as `__REDACTED__` unless
// `--show-secrets` is given: output gets pasted into issues and chats.
import { getConfigValue, redactConfig } from "../../config/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, printJson, printLine } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { getOptions } from "./commands.js";

/** Prints the value at `path`; strings print bare unless `--json`; exit 1 when the path is unset. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof getOptions>,
): Promise<number> {
  const [path = ""] = args;
  const loaded = loadForCli(ctx, { requireValid: false });
  const config = opts.showSecrets ? loaded.config : redactConfig(loaded.config);
  const found = getConfigValue(config, path);
  if (!found.ok) throw new CliError(found.error);
  if (found.value === undefined) throw new CliError(`${path} is not set in ${loaded.path}`);
  if (opts.json || typeof found.value !== "string") printJson(ctx, found.value);
  else printLine(ctx, found.value);
  return 0;
}
