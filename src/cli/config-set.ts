// `pincer config set <path> <value>`: the value is JSON5 when it parses, else a plain string.
import JSON5 from "json5";
import { applyConfigEdits } from "./config-edit.js";
import type { CliContext } from "./context.js";
import type { CommandInput } from "./program.js";

/** Parses a command-line value: `18789` → number, `true` → boolean, `{a:1}` → object, `hi` → "hi". */
function parseCliValue(raw: string): unknown {
  try {
    return JSON5.parse(raw);
  } catch {
    // Not JSON5: the user meant a bare string (e.g. a model ref like anthropic/claude-opus-4-5).
    return raw;
  }
}

/** Sets one config value; validates the whole result first, keeps a backup, writes atomically. */
export async function run(
  ctx: CliContext,
  { args, opts }: CommandInput<{ json?: boolean; string?: boolean }>,
): Promise<number> {
  const [path = "", raw = ""] = args;
  const value = opts.string ? raw : parseCliValue(raw);
  return applyConfigEdits(ctx, {
    edits: [{ op: "set", path, value }],
    json: opts.json,
    summary: `set ${path}`,
  });
}
