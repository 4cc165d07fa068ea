// Loading the config for a command: one place that prints problems the same way everywhere.
import { formatConfigIssues, type LoadedConfig, loadConfig } from "../config/index.js";
import { asBlock, type CliContext, CliError } from "./command-context.js";

/** Loads openclaw.json for a command; with `requireValid`, errors abort the command (exit 1). */
export function loadForCli(ctx: CliContext, options: { requireValid: boolean }): LoadedConfig {
  const loaded = loadConfig({ env: ctx.env, ...(ctx.profile ? { profile: ctx.profile } : {}) });
  const errors = loaded.issues.filter((issue) => issue.severity === "error");
  if (errors.length > 0 && options.requireValid) {
    ctx.stderr(asBlock(formatConfigIssues(loaded, { color: ctx.color })));
    throw new CliError(`config ${loaded.path} is invalid; fix it or run: pincer config validate`);
  }
  return loaded;
}
