// Shared by every CLI command that changes the config (`config set/unset`, `agents add`, `channels add`,
// `setup`): edits validated, backed up and written atomically under the config write lock (concurrent
// writers, CLI or gateway, never lose each other's changes).
import {
  type EditConfigParams,
  editConfigFile,
  formatConfigIssues,
  type LoadedConfig,
} from "../config/index.js";
import { validateConfigWithModelRefs } from "../runtime/models/model-ref-rules.js";
import { asBlock, type CliContext, CliError, printJson, printLine } from "./context.js";
import { loadForCli } from "./load.js";

/** Applies `edits` to the active config file; refuses (exit 1, nothing written) if the result is invalid.
 * Prints a summary unless `quiet` (for commands that print their own). Pass `loaded` if already read. */
export function applyConfigEdits(
  ctx: CliContext,
  params: {
    /** The edits, or a function of the config at write time (re-run if another writer got in first). */
    edits: EditConfigParams["edits"];
    json?: boolean;
    summary: string;
    quiet?: boolean;
    loaded?: LoadedConfig;
  },
): number {
  const loaded = params.loaded ?? loadForCli(ctx, { requireValid: false });
  const result = editConfigFile({
    configPath: loaded.path,
    edits: params.edits,
    env: ctx.env,
    validate: (value) => validateConfigWithModelRefs({ value, paths: loaded.paths, env: ctx.env }),
  });
  if (!result.ok && result.reason !== "invalid") {
    // Another writer held the config write lock too long (or the file changed under a baseHash).
    throw new CliError(`not written: ${result.issues[0]?.message ?? result.reason}`);
  }
  if (!result.ok) {
    ctx.stderr(
      asBlock(
        formatConfigIssues({ path: loaded.path, issues: result.issues }, { color: ctx.color }),
      ),
    );
    throw new CliError(`not written: the change would leave ${loaded.path} invalid`);
  }
  if (params.quiet) return 0;
  if (params.json) {
    printJson(ctx, { ok: true, path: loaded.path, backupPath: result.backupPath ?? null });
  } else {
    printLine(ctx, `${params.summary} in ${loaded.path}`);
    if (result.backupPath) printLine(ctx, `backup: ${result.backupPath}`);
  }
  return 0;
}
