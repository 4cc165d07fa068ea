// `pincer config file`: where the active config lives and whether it exists.

import { existsSync } from "node:fs";
import { resolveStatePaths } from "../../config/paths.js";
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine } from "../command-context.js";
import type { fileOptions } from "./commands.js";

/** Prints the config path (and the state dir with `--json`). */
export async function run(ctx: CliContext, { opts }: InputOf<typeof fileOptions>): Promise<number> {
  const paths = resolveStatePaths({
    env: ctx.env,
    ...(ctx.profile ? { profile: ctx.profile } : {}),
  });
  const exists = existsSync(paths.configPath);
  if (opts.json) {
    printJson(ctx, { path: paths.configPath, exists, stateDir: paths.stateDir });
  } else {
    printLine(ctx, paths.configPath);
  }
  return 0;
}
