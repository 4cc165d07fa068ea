// What `pincer config set` was asked to write: one `<path> <value>` (value inferred, `--string` or
// `--strict-json`) or a batch (`--batch-json` / `--batch-file`, OpenClaw's `[{path, value}, …]`), each
// set whole (`--replace`, the default) or merged into the object already there (`--merge`).
import { readFileSync } from "node:fs";
import { isPlainObject } from "../../config/config-path.js";
import {
  type ConfigEdit,
  type EditsFromConfig,
  formatConfigPath,
  getConfigValue,
  type PathSegment,
  parseConfigPath,
} from "../../config/index.js";
import { parseJson5 } from "../../lib/json5.js";
import type { OptionsOf } from "../command.js";
import { CliError, ExitCode } from "../command-context.js";
import type { setOptions } from "./commands.js";

/** One assignment: a path and its new value. */
export interface ConfigAssignment {
  path: string;
  value: unknown;
}

const usage = (message: string) => new CliError(message, ExitCode.usage);

/** Parses a command-line value: `18789` → number, `true` → boolean, `{a:1}` → object, `hi` → "hi";
 * with `strict` it must parse as JSON5 (else a usage error naming the path). */
export function parseCliValue(params: { raw: string; path: string; strict: boolean }): unknown {
  try {
    return parseJson5(params.raw);
  } catch (err) {
    if (params.strict) {
      const why = err instanceof Error ? err.message.replace(/^JSON5: /, "") : String(err);
      throw usage(
        `--strict-json: the value for ${params.path} is not valid JSON/JSON5 (${why}); quote strings, e.g. '"text"'`,
      );
    }
    // Not JSON5: the user meant a bare string (e.g. a model ref like anthropic/claude-opus-4-5).
    return params.raw;
  }
}

function parseBatch(text: string, from: string): ConfigAssignment[] {
  let items: unknown;
  try {
    items = parseJson5(text);
  } catch (err) {
    throw usage(`${from}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!Array.isArray(items) || items.length === 0)
    throw usage(`${from}: expected a non-empty array of {"path": …, "value": …}`);
  return items.map((item, index) => {
    if (!isPlainObject(item) || typeof item.path !== "string" || item.path.trim() === "")
      throw usage(`${from}[${index}]: expected {"path": "<dot path>", "value": …}`);
    if (!Object.hasOwn(item, "value"))
      throw usage(
        `${from}[${index}] (${item.path}): no "value" (SecretRef/provider builder entries are not supported; write the value itself)`,
      );
    return { path: item.path, value: item.value };
  });
}

/** The assignments of one `config set` call, or a usage error for a mix that makes no sense. */
export function readAssignments(
  args: readonly string[],
  opts: OptionsOf<typeof setOptions>,
): ConfigAssignment[] {
  if (opts.string && opts.strictJson) throw usage("--string and --strict-json exclude each other");
  if (opts.merge && opts.replace) throw usage("--merge and --replace exclude each other");
  const [path, raw] = args;
  const batches = [opts.batchJson, opts.batchFile].filter((b) => b !== undefined).length;
  if (batches > 0) {
    if (batches > 1 || path !== undefined)
      throw usage("give either <path> <value>, --batch-json or --batch-file");
    if (opts.batchJson !== undefined) return parseBatch(opts.batchJson, "--batch-json");
    let text: string;
    try {
      text = readFileSync(opts.batchFile!, "utf8");
    } catch (err) {
      throw new CliError(`--batch-file ${opts.batchFile}: ${(err as Error).message}`);
    }
    return parseBatch(text, `--batch-file ${opts.batchFile}`);
  }
  if (path === undefined || raw === undefined)
    throw usage('config set needs <path> <value> (or --batch-json \'[{"path":…,"value":…}]\')');
  const value = opts.string ? raw : parseCliValue({ raw, path, strict: opts.strictJson === true });
  return [{ path, value }];
}

/** Set edits that merge `value` into `existing` key by key (objects recurse; anything else is set). */
function mergeEdits(segments: PathSegment[], existing: unknown, value: unknown): ConfigEdit[] {
  if (!isPlainObject(existing) || !isPlainObject(value))
    return [{ op: "set", path: formatConfigPath(segments), value }];
  return Object.entries(value).flatMap(([key, child]) =>
    mergeEdits([...segments, key], existing[key], child),
  );
}

/** The edits for `assignments`: set whole, or (`merge`) merged into the object at each path as it is
 * at write time. `--merge` needs an object value. */
export function assignmentEdits(
  assignments: readonly ConfigAssignment[],
  merge: boolean,
): ConfigEdit[] | EditsFromConfig {
  if (!merge) return assignments.map(({ path, value }) => ({ op: "set", path, value }));
  for (const { path, value } of assignments) {
    if (!isPlainObject(value))
      throw usage(`--merge: the value for ${path} must be an object, e.g. '{"key": …}'`);
  }
  return (current) => {
    const edits: ConfigEdit[] = [];
    for (const { path, value } of assignments) {
      const parsed = parseConfigPath(path);
      if (!parsed.ok) return { error: `${path}: ${parsed.error}` };
      const existing = getConfigValue(current, parsed.segments);
      edits.push(...mergeEdits(parsed.segments, existing.ok ? existing.value : undefined, value));
    }
    return edits;
  };
}
