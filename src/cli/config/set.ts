// `pincer config set <path> <value> [--strict-json|--string] [--merge|--replace] [--dry-run]`, or
// `config set --batch-json '[{path, value}, …]'` / `--batch-file F` (OpenClaw's flags): the value is
// JSON5 when it parses, else a plain string (`--strict-json`: it must parse). Written through the
// comment-keeping config editor under the config lock, validated first; `--dry-run` writes nothing.
import { existsSync, readFileSync } from "node:fs";
import { formatConfigIssues, planConfigEdits } from "../../config/index.js";
import type { InputOf } from "../command.js";
import { asBlock, type CliContext, CliError, printJson, printLine } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { setOptions } from "./commands.js";
import { applyConfigEdits, configEditValidator } from "./edit.js";
import { assignmentEdits, readAssignments } from "./set-input.js";

/** Sets one value (or a batch); validates the whole result first, keeps a backup, writes atomically. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof setOptions>,
): Promise<number> {
  const assignments = readAssignments(
    args.filter((a) => a !== undefined),
    opts,
  );
  const edits = assignmentEdits(assignments, opts.merge === true);
  const paths = assignments.map((a) => a.path);
  const summary = `${opts.merge ? "merged into" : "set"} ${paths.join(", ")}`;
  if (!opts.dryRun) return applyConfigEdits(ctx, { edits, json: opts.json, summary });

  const loaded = loadForCli(ctx, { requireValid: false });
  const text = existsSync(loaded.path) ? readFileSync(loaded.path, "utf8") : "{}\n";
  const plan = planConfigEdits({
    file: loaded.path,
    text,
    edits,
    env: ctx.env,
    home: loaded.paths.home,
    validate: configEditValidator(ctx, loaded),
  });
  if (!plan.ok) {
    ctx.stderr(
      asBlock(formatConfigIssues({ path: loaded.path, issues: plan.issues }, { color: ctx.color })),
    );
    throw new CliError(`dry run: the change would leave ${loaded.path} invalid (nothing written)`);
  }
  if (opts.json) printJson(ctx, { ok: true, dryRun: true, path: loaded.path, paths });
  else printLine(ctx, `dry run: ${summary} would be valid in ${loaded.path} (nothing written)`);
  return 0;
}
