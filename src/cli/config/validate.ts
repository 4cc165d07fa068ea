// `pincer config validate`: every problem, each with its path, file and line; exit 1 on errors.
import { formatConfigIssues, withCompatKeyIssues } from "../../config/index.js";
import { withModelRefIssues } from "../../runtime/models/model-ref-rules.js";
import type { InputOf } from "../command.js";
import { asBlock, type CliContext, printJson } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { validateOptions } from "./commands.js";

/** Validates the active config; prints all issues; exit code 1 when any is an error. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof validateOptions>,
): Promise<number> {
  // Schema and rules, then the models each agent names (unknown ones with a did-you-mean), then
  // one warning per key the schema accepts for OpenClaw compatibility but Pincer ignores.
  const file = loadForCli(ctx, { requireValid: false });
  const loaded = withCompatKeyIssues(withModelRefIssues(file, file.env));
  if (opts.json) {
    printJson(ctx, {
      valid: loaded.valid,
      path: loaded.path,
      exists: loaded.exists,
      issues: loaded.issues,
    });
  } else {
    ctx.stdout(asBlock(formatConfigIssues(loaded, { color: ctx.color })));
  }
  return loaded.valid ? 0 : 1;
}
