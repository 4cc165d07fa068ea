// Shared by every CLI command that changes the config (`config set/unset`, `agents add`, `channels add`,
// `setup`): edits validated, backed up and written atomically under the config write lock (concurrent
// writers, CLI or gateway, never lose each other's changes). A model the edit names must exist.
import {
  type ConfigIssue,
  type ConfigValidationResult,
  type EditConfigParams,
  type EnvMap,
  editConfigFile,
  formatConfigIssues,
  formatConfigPath,
  type LoadedConfig,
  validateConfig,
  withConfigEnv,
} from "../../config/index.js";
import { type ResolvedConfig, resolveConfig } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { checkModelRefs } from "../../runtime/models/model-ref-rules.js";
import { asBlock, type CliContext, CliError, printJson, printLine } from "../command-context.js";
import { loadForCli } from "../load.js";
import { dangerOf } from "../uninstall-plan.js";

/** An error per agent whose workspace is `/`, the home dir, the state dir or a folder holding them. */
function unsafeWorkspaces(resolved: ResolvedConfig): ConfigIssue[] {
  return resolved.agents.flatMap((agent) => {
    const danger = dangerOf(agent.workspace, resolved.paths);
    if (!danger) return [];
    const path = agent.source.length
      ? formatConfigPath([...agent.source, "workspace"])
      : "agents.defaults.workspace";
    const message = `agent ${agent.id}'s workspace ${agent.workspace} is not a workspace folder: ${danger}`;
    return [{ severity: "error" as const, path, message }];
  });
}

/** The validation every CLI config edit (and `config set --dry-run`) applies: the schema and rules,
 * then the model refs and workspaces the edit introduces. Model refs are checked as at gateway start
 * (an unknown model would stop it from starting), but only new ones: a config already naming a bad
 * model can still be edited. Workspaces the same way: no agent pointed at `/`, ~ or the state dir. */
export function configEditValidator(
  ctx: CliContext,
  loaded: LoadedConfig,
): (value: unknown) => ConfigValidationResult {
  const key = (issue: ConfigIssue) => `${issue.path}\u0000${issue.message}`;
  const problems = (resolved: ResolvedConfig, env: EnvMap) => [
    ...checkModelRefs(resolved, env),
    ...unsafeWorkspaces(resolved),
  ];
  const before = new Set(problems(loaded.resolved, loaded.env).map(key));
  return (value: unknown): ConfigValidationResult => {
    const verdict = validateConfig(value, { paths: loaded.paths });
    const resolved = resolveConfig({ config: value as OpenClawConfig, paths: loaded.paths });
    // The edited file's own `env` vars count, as they will at the next load.
    const env = withConfigEnv({ base: ctx.env, config: value });
    const introduced = problems(resolved, env).filter((i) => !before.has(key(i)));
    if (introduced.length === 0) return verdict;
    return { valid: false, issues: [...verdict.issues, ...introduced] };
  };
}

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
  const validate = configEditValidator(ctx, loaded);
  const result = editConfigFile({
    configPath: loaded.path,
    edits: params.edits,
    env: ctx.env,
    validate,
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
