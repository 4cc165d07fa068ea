// Keys Pincer accepts for OpenClaw compatibility but does not act on (marked in the schema with
// `acceptedForCompat`, `src/protocol/config/common.ts`): which of them a config uses, as one located
// warning per key path, so `config validate`, `pincer status` and gateway start never stay silent
// about a setting that is ignored. Pure: walks the value against the (compact or TypeBox) schema.
import { COMPAT_MARK_KEY, COMPAT_NOTE_KEY } from "../protocol/config/compat-mark.js";
import type { ConfigIssue, SourcePosition } from "./config-issue.js";
import { formatConfigPath, isPlainObject, type PathSegment } from "./config-path.js";
import { DEFAULT_CONFIG_SCHEMA } from "./default-schema.js";

type SchemaNode = Record<string, unknown>;

/** One marked key the config sets: where, and the schema's note on what would implement it. */
export interface CompatKeyUse {
  path: string;
  segments: PathSegment[];
  note: string;
  /** Set for a value-level mark (`gateway.bind: "auto"`): the one value that is ignored. */
  value?: unknown;
}

const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf"] as const;
/** The note of a key no schema property covers in an object that lets extra keys through. */
export const UNKNOWN_KEY_NOTE = "not a key Pincer knows";
/** Stands for a key an open object accepts without a schema: marked, so its use is reported. */
const UNKNOWN_KEY_SCHEMA: SchemaNode = {
  [COMPAT_MARK_KEY]: "compat",
  [COMPAT_NOTE_KEY]: UNKNOWN_KEY_NOTE,
};

/** The warning text of one use (the path is shown beside it, not inside). */
export function compatKeyMessage(use: Pick<CompatKeyUse, "note" | "value">): string {
  if (use.note === UNKNOWN_KEY_NOTE)
    return "not a key Pincer knows (accepted, as this section allows extra keys) — ignored";
  if (use.value !== undefined)
    return `${JSON.stringify(use.value)} is accepted for OpenClaw compatibility and ignored — Pincer does not act on it yet; ${use.note}`;
  return `accepted for OpenClaw compatibility and ignored — Pincer does not act on it yet; ${use.note}`;
}

function markOf(node: SchemaNode): string | undefined {
  if (node[COMPAT_MARK_KEY] !== "compat") return undefined;
  const note = node[COMPAT_NOTE_KEY];
  return typeof note === "string" && note !== "" ? note : "no issue yet";
}

function resolve(root: SchemaNode, node: SchemaNode): SchemaNode {
  const ref = node.$ref;
  if (typeof ref !== "string") return node;
  const defs = root.$defs;
  const target = isPlainObject(defs) ? defs[ref.replace(/^#\/\$defs\//, "")] : undefined;
  return isPlainObject(target) ? target : {};
}

/** A disabled section (`{ enabled: false, ... }`) or a `false` flag asks for nothing: nothing is ignored. */
function isDisabled(value: unknown): boolean {
  return value === false || (isPlainObject(value) && value.enabled === false);
}

/** True for an object schema with named properties that still accepts any other key
 *  (`additionalProperties: true`): such a key is accepted, and nothing reads it. */
function isOpenObject(node: SchemaNode): boolean {
  return isPlainObject(node.properties) && node.additionalProperties === true;
}

function isOfType(value: unknown, type: string): boolean {
  if (type === "object") return isPlainObject(value);
  if (type === "array") return Array.isArray(value);
  if (type === "integer") return Number.isInteger(value);
  if (type === "null") return value === null;
  return typeof value === type;
}

function childSchema(node: SchemaNode, key: string): SchemaNode | undefined {
  const props = node.properties;
  if (isPlainObject(props) && isPlainObject(props[key])) return props[key];
  const patterns = node.patternProperties;
  if (isPlainObject(patterns)) {
    for (const [pattern, schema] of Object.entries(patterns)) {
      if (isPlainObject(schema) && new RegExp(pattern).test(key)) return schema;
    }
  }
  return isPlainObject(node.additionalProperties) ? node.additionalProperties : undefined;
}

/** Every marked key `config` sets, in config order; a marked section counts once (not per child). */
export function findCompatKeys(
  config: unknown,
  schema: SchemaNode = DEFAULT_CONFIG_SCHEMA,
): CompatKeyUse[] {
  const found = new Map<string, CompatKeyUse>();
  // Iterative walk: config depth is bounded by the loader, but nothing here recurses on input.
  // `inUnion`: reached as one branch of a union, so it applies only to values of its type.
  const stack: Array<{
    value: unknown;
    node: SchemaNode;
    segments: PathSegment[];
    inUnion?: boolean;
  }> = [{ value: config, node: schema, segments: [] }];
  while (stack.length > 0) {
    const { value, node: raw, segments, inUnion } = stack.pop()!;
    if (value === undefined) continue;
    const note = markOf(raw);
    const node = resolve(schema, raw);
    // A branch for one literal value (a value-level mark) applies only to that value, and a
    // branch of one type (a marked array form) only to values of that type.
    if ("const" in node && node.const !== value) continue;
    if (inUnion && typeof node.type === "string" && !isOfType(value, node.type)) continue;
    const mark = note ?? markOf(node);
    if (mark !== undefined) {
      const path = formatConfigPath(segments);
      // A `false` marked as a value (`streaming: false`) is the setting itself, not a switch-off.
      const literal = "const" in node;
      const off = !literal && isDisabled(value);
      if (!off && !found.has(path))
        found.set(path, { path, segments, note: mark, ...(literal ? { value } : {}) });
      continue;
    }
    // Nothing below a disabled section is acted on, so nothing there is ignored either.
    if (segments.length > 0 && isPlainObject(value) && isDisabled(value)) continue;
    const next: typeof stack = [];
    for (const list of SCHEMA_LISTS) {
      const branches = node[list];
      if (!Array.isArray(branches)) continue;
      for (const branch of branches)
        if (isPlainObject(branch)) next.push({ value, node: branch, segments, inUnion: true });
    }
    if (isPlainObject(value)) {
      const open = isOpenObject(node);
      for (const [key, child] of Object.entries(value)) {
        const sub = childSchema(node, key);
        if (sub) next.push({ value: child, node: sub, segments: [...segments, key] });
        else if (open)
          next.push({ value: child, node: UNKNOWN_KEY_SCHEMA, segments: [...segments, key] });
      }
    } else if (Array.isArray(value) && isPlainObject(node.items)) {
      const items = node.items;
      value.forEach((child, index) => {
        next.push({ value: child, node: items, segments: [...segments, index] });
      });
    }
    // Reversed so the stack pops in config order.
    stack.push(...next.reverse());
  }
  return [...found.values()];
}

/** Inputs of {@link compatKeyIssues}. */
export interface CompatKeyIssuesParams {
  config: unknown;
  schema?: SchemaNode;
  /** Where a path stands in the config file (the loader's `locate`). */
  locate?: (path: string) => SourcePosition | undefined;
}

/** The uses of marked keys as config warnings (`pincer config validate`, `pincer status`). */
export function compatKeyIssues(params: CompatKeyIssuesParams): ConfigIssue[] {
  return findCompatKeys(params.config, params.schema).map((use) => {
    const at = params.locate?.(use.path);
    return { severity: "warning", path: use.path, message: compatKeyMessage(use), ...at };
  });
}

/** A loaded config with the compat-key warnings appended (paths already reported are skipped). */
export function withCompatKeyIssues<
  T extends {
    config: unknown;
    issues: ConfigIssue[];
    locate?: (path: string) => SourcePosition | undefined;
  },
>(loaded: T): T {
  const seen = new Set(loaded.issues.map((issue) => issue.path));
  const extra = compatKeyIssues({
    config: loaded.config,
    ...(loaded.locate ? { locate: loaded.locate } : {}),
  }).filter((issue) => !seen.has(issue.path));
  return extra.length === 0 ? loaded : { ...loaded, issues: [...loaded.issues, ...extra] };
}

/**
 * Every marked node of `schema` as a path pattern (`cron`, `channels.*`, `agents.list[].sandbox.docker`):
 * what the schema declares accepted-but-ignored. `*` stands for any key, `[]` for any index; a mark on
 * one literal value reads `session.scope="global"`.
 */
export function listCompatMarks(schema: SchemaNode = DEFAULT_CONFIG_SCHEMA): string[] {
  const out = new Set<string>();
  const stack: Array<{ node: SchemaNode; path: string; refs: string[] }> = [
    { node: schema, path: "", refs: [] },
  ];
  const join = (path: string, key: string) => (path === "" ? key : `${path}.${key}`);
  while (stack.length > 0) {
    const { node: raw, path, refs } = stack.pop()!;
    const ref = typeof raw.$ref === "string" ? raw.$ref : undefined;
    if (ref && refs.includes(ref)) continue;
    const node = resolve(schema, raw);
    if (markOf(raw) !== undefined || markOf(node) !== undefined) {
      out.add("const" in node ? `${path}=${JSON.stringify(node.const)}` : path);
      continue;
    }
    const seen = ref ? [...refs, ref] : refs;
    const props = isPlainObject(node.properties) ? node.properties : {};
    for (const [key, child] of Object.entries(props))
      if (isPlainObject(child)) stack.push({ node: child, path: join(path, key), refs: seen });
    const patterns = isPlainObject(node.patternProperties) ? node.patternProperties : {};
    for (const child of Object.values(patterns))
      if (isPlainObject(child)) stack.push({ node: child, path: join(path, "*"), refs: seen });
    if (isPlainObject(node.additionalProperties))
      stack.push({ node: node.additionalProperties, path: join(path, "*"), refs: seen });
    if (isPlainObject(node.items)) stack.push({ node: node.items, path: `${path}[]`, refs: seen });
    for (const list of SCHEMA_LISTS) {
      const branches = node[list];
      if (Array.isArray(branches))
        for (const branch of branches)
          if (isPlainObject(branch)) stack.push({ node: branch, path, refs: seen });
    }
  }
  return [...out].sort();
}
