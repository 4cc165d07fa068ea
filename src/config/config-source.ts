// Reads the main config file and resolves `$include` (string or array, relative to the including file,
// in any object, nested up to 10 levels) into one value with per-path source positions.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { type ConfigIssue, makeIssue, type SourcePosition } from "./config-issue.js";
import { formatConfigPath, isPlainObject, type PathSegment } from "./config-path.js";
import { type Json5Node, positionAt } from "./json5-locate.js";
import { type ParsedJson5, parseJson5Text } from "./json5-parse.js";
import { type LocatedValue, mergeLocated, type OriginTree } from "./located-value.js";
import { expandHome } from "./paths.js";

/** Most nested `$include` levels allowed below the main file. */
const MAX_INCLUDE_DEPTH = 10;

/** The key that pulls other files into an object. */
const INCLUDE_KEY = "$include";

/** Inputs for {@link resolveConfigSource}; `text` replaces the main file's content (used by the editor). */
export interface ResolveSourceParams {
  file: string;
  home: string;
  text?: string;
}

/** The merged value (before `${VAR}` substitution), where each path came from, and every file read. */
export interface ConfigSource {
  /** False when the main file does not exist. */
  exists: boolean;
  /** False when the main file could not be read or parsed; `value` is then `{}`. */
  parsed: boolean;
  value: unknown;
  origin?: OriginTree;
  files: string[];
  issues: ConfigIssue[];
}

interface FileContext {
  file: string;
  parsed: ParsedJson5;
  chain: string[];
}

interface ResolveRun {
  mainDir: string;
  home: string;
  cache: Map<string, ParsedJson5 | ConfigIssue>;
  files: string[];
  issues: ConfigIssue[];
}

function displayPath(run: ResolveRun, file: string): string {
  const rel = relative(run.mainDir, file);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : file;
}

function positionOf(ctx: FileContext, node: Json5Node): SourcePosition {
  return { file: ctx.file, ...positionAt(ctx.parsed.starts, node.keyStart ?? node.start) };
}

function readAndParse(
  run: ResolveRun,
  target: { file: string; at: SourcePosition },
): ParsedJson5 | ConfigIssue {
  const { file, at } = target;
  const cached = run.cache.get(file);
  if (cached) return cached;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "not found" : err instanceof Error ? err.message : String(err);
    const message = `cannot read included file "${displayPath(run, file)}": ${why}`;
    const issue = makeIssue({ severity: "error", path: "", message, at });
    run.cache.set(file, issue);
    return issue;
  }
  const parsed = parseJson5Text(file, text);
  const result = parsed.ok ? parsed : parsed.issue;
  run.cache.set(file, result);
  if (parsed.ok && !run.files.includes(file)) run.files.push(file);
  return result;
}

function includeSpecs(value: unknown): string[] | undefined {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
  return undefined;
}

function resolveIncludedFile(
  run: ResolveRun,
  params: { ctx: FileContext; spec: string; at: SourcePosition; segments: PathSegment[] },
): LocatedValue | undefined {
  const { ctx, spec, at, segments } = params;
  const path = formatConfigPath([...segments, INCLUDE_KEY]);
  const target = spec.startsWith("~")
    ? expandHome(spec, run.home)
    : resolve(dirname(ctx.file), spec);
  const chainText = [...ctx.chain, target].map((file) => displayPath(run, file)).join(" → ");
  if (ctx.chain.includes(target)) {
    run.issues.push(
      makeIssue({ severity: "error", path, message: `circular $include: ${chainText}`, at }),
    );
    return undefined;
  }
  if (ctx.chain.length > MAX_INCLUDE_DEPTH) {
    const message = `$include nested more than ${MAX_INCLUDE_DEPTH} levels deep: ${chainText}`;
    run.issues.push(makeIssue({ severity: "error", path, message, at }));
    return undefined;
  }
  const parsed = readAndParse(run, { file: target, at });
  if (!("ok" in parsed)) {
    run.issues.push({ ...parsed, path: parsed.path === "" ? path : parsed.path });
    return undefined;
  }
  const child: FileContext = { file: target, parsed, chain: [...ctx.chain, target] };
  return resolveNode(run, { ctx: child, value: parsed.value, node: parsed.root, segments });
}

function resolveObject(
  run: ResolveRun,
  params: {
    ctx: FileContext;
    value: Record<string, unknown>;
    node: Json5Node;
    segments: PathSegment[];
  },
): LocatedValue {
  const { ctx, value, node, segments } = params;
  const at = positionOf(ctx, node);
  const ownEntries: Array<[string, unknown]> = [];
  const children = new Map<PathSegment, OriginTree>();
  const childNodes = new Map((node.children ?? []).map((child) => [child.key, child.node]));
  for (const [key, childValue] of Object.entries(value)) {
    if (key === INCLUDE_KEY) continue;
    const childNode = childNodes.get(key) ?? node;
    const resolved = resolveNode(run, {
      ctx,
      value: childValue,
      node: childNode,
      segments: [...segments, key],
    });
    ownEntries.push([key, resolved.value]);
    children.set(key, resolved.origin);
  }
  const siblings: LocatedValue = {
    value: Object.fromEntries(ownEntries),
    origin: { at, children },
  };
  if (!Object.hasOwn(value, INCLUDE_KEY)) return siblings;

  const includeNode = childNodes.get(INCLUDE_KEY) ?? node;
  const includeAt = positionOf(ctx, includeNode);
  const specs = includeSpecs(value[INCLUDE_KEY]);
  if (!specs) {
    const path = formatConfigPath([...segments, INCLUDE_KEY]);
    const message = "$include must be a file path or an array of file paths";
    run.issues.push(makeIssue({ severity: "error", path, message, at: includeAt }));
    return siblings;
  }
  let base: LocatedValue | undefined;
  for (const spec of specs) {
    const included = resolveIncludedFile(run, { ctx, spec, at: includeAt, segments });
    if (included) base = base ? mergeLocated(base, included) : included;
  }
  if (!base) return siblings;
  if (!isPlainObject(base.value)) {
    if (ownEntries.length === 0) return { value: base.value, origin: { ...base.origin, at } };
    const path = formatConfigPath(segments);
    const message =
      "$include produced a non-object, so the keys beside $include cannot be merged into it";
    run.issues.push(makeIssue({ severity: "error", path, message, at: includeAt }));
    return siblings;
  }
  const merged = mergeLocated(base, siblings);
  return { value: merged.value, origin: { ...merged.origin, at } };
}

function resolveNode(
  run: ResolveRun,
  params: { ctx: FileContext; value: unknown; node: Json5Node; segments: PathSegment[] },
): LocatedValue {
  const { ctx, value, node, segments } = params;
  if (isPlainObject(value)) return resolveObject(run, { ctx, value, node, segments });
  const at = positionOf(ctx, node);
  if (!Array.isArray(value)) return { value, origin: { at } };
  const children = new Map<PathSegment, OriginTree>();
  const items = value.map((item, index) => {
    const childNode = node.children?.[index]?.node ?? node;
    const resolved = resolveNode(run, {
      ctx,
      value: item,
      node: childNode,
      segments: [...segments, index],
    });
    children.set(index, resolved.origin);
    return resolved.value;
  });
  return { value: items, origin: { at, children } };
}

function readMainText(file: string): { text?: string; missing: boolean; issue?: ConfigIssue } {
  try {
    return { text: readFileSync(file, "utf8"), missing: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { missing: true };
    const message = `cannot read the config file: ${err instanceof Error ? err.message : String(err)}`;
    return { missing: false, issue: { severity: "error", path: "", message, file } };
  }
}

/** Reads `file` (or uses `text`) and resolves every `$include`; problems come back as issues. */
export function resolveConfigSource(params: ResolveSourceParams): ConfigSource {
  const file = resolve(params.file);
  const run: ResolveRun = {
    mainDir: dirname(file),
    home: params.home,
    cache: new Map(),
    files: [],
    issues: [],
  };
  const main =
    params.text !== undefined ? { text: params.text, missing: false } : readMainText(file);
  if (main.text === undefined) {
    const issues = main.issue ? [main.issue] : [];
    return { exists: !main.missing, parsed: false, value: {}, files: [], issues };
  }
  run.files.push(file);
  const parsed = parseJson5Text(file, main.text);
  if (!parsed.ok) {
    return { exists: true, parsed: false, value: {}, files: run.files, issues: [parsed.issue] };
  }
  const ctx: FileContext = { file, parsed, chain: [file] };
  const resolved = resolveNode(run, { ctx, value: parsed.value, node: parsed.root, segments: [] });
  const { value, origin } = resolved;
  return { exists: true, parsed: true, value, origin, files: run.files, issues: run.issues };
}
