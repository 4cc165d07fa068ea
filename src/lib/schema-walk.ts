// The one JSON Schema walker: it walks a value and a plain JSON Schema (what TypeBox emits, or its
// JSON copy in `protocol/gateway/schema.generated.ts`) together and returns structured violations
// (keyword, path, the facts), never messages: the config validator and the gateway's INVALID_REQUEST
// answers each word them their own way. Supported: $ref/$defs, anyOf/oneOf, allOf, const/enum, type,
// string, number, array (items, prefixItems) and object (properties, patternProperties,
// additionalProperties, required) keywords. Needs no TypeBox at run time.

/** A path into the value: object keys and array indexes. */
export type SchemaPath = Array<string | number>;

/** What one union branch accepts, for wording a failed union ("expected a string or null"). */
export type SchemaForm =
  | { literal: unknown }
  | { type: string }
  | { object: true }
  | { any: true }
  | { nothing: true };

/** One branch of a failed union: its own violations, its literals (if it is one) and its forms. */
export interface UnionBranch {
  violations: SchemaViolation[];
  literals: unknown[] | undefined;
  forms: SchemaForm[];
}

/** One thing wrong with the value at `path` (for `required` / `additionalProperties`: the object). */
export type SchemaViolation = { path: SchemaPath } & (
  | { keyword: "false" }
  | { keyword: "type"; types: string[]; value: unknown }
  | { keyword: "const" | "enum"; allowed: unknown[]; value: unknown }
  | { keyword: "anyOf"; value: unknown; branches: UnionBranch[] }
  | { keyword: "minLength" | "maxLength"; limit: number; value: string }
  | { keyword: "pattern"; pattern: string; value: string }
  | {
      keyword: "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum";
      limit: number;
      value: number;
    }
  | { keyword: "minItems" | "maxItems"; limit: number; value: unknown[] }
  | { keyword: "items"; index: number; allowed: number }
  | { keyword: "required"; key: string }
  | {
      keyword: "additionalProperties";
      key: string;
      /** False: the object allows other keys (a violation only worth a typo hint). */
      closed: boolean;
      names: string[];
      patterns: string[];
    }
);

/** Options of {@link walkSchema}. */
export interface WalkOptions {
  /** Stop descending into further values once this many failures were found. */
  maxFailures?: number;
}

type SchemaNode = Record<string, unknown>;

interface Run {
  defs: SchemaNode[];
  patterns: Map<string, RegExp>;
  out: SchemaViolation[];
  /** Failures in `out` so far (shared by the scoped copies of one run). */
  tally: { failures: number };
  maxFailures: number;
}

/** Whether a violation makes the value invalid (an unknown key of an open object does not). */
export function isFailure(violation: SchemaViolation): boolean {
  return violation.keyword !== "additionalProperties" || violation.closed;
}

function isNode(value: unknown): value is SchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonType(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  const kind = typeof value;
  return kind === "string" || kind === "number" || kind === "boolean" || kind === "object"
    ? kind
    : "null";
}

function matchesType(value: unknown, type: unknown): boolean {
  if (type === "integer") return typeof value === "number" && Number.isInteger(value);
  return jsonType(value) === type;
}

function regexFor(run: Run, pattern: string): RegExp {
  let regex = run.patterns.get(pattern);
  if (!regex) {
    regex = new RegExp(pattern);
    run.patterns.set(pattern, regex);
  }
  return regex;
}

function resolveRef(run: Run, schema: SchemaNode): SchemaNode {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const name = ref.replace(/^#\/(\$defs|definitions)\//, "");
  for (let i = run.defs.length - 1; i >= 0; i--) {
    const target = run.defs[i][name];
    if (isNode(target)) return target;
  }
  return {};
}

function literalsOf(schema: SchemaNode): unknown[] | undefined {
  if (Object.hasOwn(schema, "const")) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  return undefined;
}

function branchesOf(schema: SchemaNode): unknown[] | undefined {
  if (Array.isArray(schema.anyOf)) return schema.anyOf;
  if (Array.isArray(schema.oneOf)) return schema.oneOf;
  return undefined;
}

function typesOf(schema: SchemaNode): string[] {
  if (Array.isArray(schema.type)) return schema.type.map(String);
  return schema.type === undefined ? [] : [String(schema.type)];
}

function formsOf(run: Run, raw: unknown): SchemaForm[] {
  if (!isNode(raw)) return [raw === false ? { nothing: true } : { any: true }];
  const schema = resolveRef(run, raw);
  const literals = literalsOf(schema);
  if (literals) return literals.map((literal) => ({ literal }));
  const branches = branchesOf(schema);
  if (branches) return branches.flatMap((branch) => formsOf(run, branch));
  const types = typesOf(schema);
  if (types.length > 0) return types.map((type) => ({ type }));
  return [isNode(schema.properties) ? { object: true } : { any: true }];
}

function push(run: Run, violation: SchemaViolation): void {
  run.out.push(violation);
  if (isFailure(violation)) run.tally.failures++;
}

function failures(violations: SchemaViolation[]): number {
  return violations.filter(isFailure).length;
}

/** A union: the first branch that passes wins (later ones are not walked); if none, every branch's
 * violations and forms, for the caller to word. */
function checkUnion(run: Run, value: unknown, branches: unknown[], path: SchemaPath): void {
  const attempts: SchemaViolation[][] = [];
  for (const branch of branches) {
    const sub: Run = { ...run, out: [], tally: { failures: 0 } };
    check(sub, value, branch, path);
    if (failures(sub.out) === 0) {
      run.out.push(...sub.out);
      return;
    }
    attempts.push(sub.out);
  }
  const described = branches.map((branch, index) => ({
    violations: attempts[index],
    literals: isNode(branch) ? literalsOf(resolveRef(run, branch)) : undefined,
    forms: formsOf(run, branch),
  }));
  push(run, { keyword: "anyOf", path, value, branches: described });
}

function checkString(run: Run, value: string, schema: SchemaNode, path: SchemaPath): void {
  const { minLength, maxLength, pattern } = schema;
  if (typeof minLength === "number" && value.length < minLength)
    push(run, { keyword: "minLength", path, limit: minLength, value });
  if (typeof maxLength === "number" && value.length > maxLength)
    push(run, { keyword: "maxLength", path, limit: maxLength, value });
  if (typeof pattern === "string" && !regexFor(run, pattern).test(value))
    push(run, { keyword: "pattern", path, pattern, value });
}

const NUMBER_BOUNDS = [
  ["minimum", (value: number, limit: number) => value < limit],
  ["maximum", (value: number, limit: number) => value > limit],
  ["exclusiveMinimum", (value: number, limit: number) => value <= limit],
  ["exclusiveMaximum", (value: number, limit: number) => value >= limit],
] as const;

function checkNumber(run: Run, value: number, schema: SchemaNode, path: SchemaPath): void {
  for (const [keyword, broken] of NUMBER_BOUNDS) {
    const limit = schema[keyword];
    if (typeof limit === "number" && broken(value, limit))
      push(run, { keyword, path, limit, value });
  }
}

function checkArray(run: Run, value: unknown[], schema: SchemaNode, path: SchemaPath): void {
  const { items, prefixItems, minItems, maxItems } = schema;
  const tuple = Array.isArray(prefixItems) ? prefixItems : Array.isArray(items) ? items : undefined;
  const rest = Array.isArray(prefixItems)
    ? items
    : Array.isArray(items)
      ? schema.additionalItems
      : items;
  value.forEach((item, index) => {
    const itemSchema = tuple && index < tuple.length ? tuple[index] : rest;
    if (itemSchema === false) {
      push(run, { keyword: "items", path, index, allowed: tuple?.length ?? 0 });
    } else {
      check(run, item, itemSchema, [...path, index]);
    }
  });
  if (typeof minItems === "number" && value.length < minItems)
    push(run, { keyword: "minItems", path, limit: minItems, value });
  if (typeof maxItems === "number" && value.length > maxItems)
    push(run, { keyword: "maxItems", path, limit: maxItems, value });
}

function checkObject(
  run: Run,
  value: Record<string, unknown>,
  schema: SchemaNode,
  path: SchemaPath,
): void {
  const properties = isNode(schema.properties) ? schema.properties : {};
  const patterns = isNode(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const key of required) {
    if (typeof key === "string" && (!Object.hasOwn(value, key) || value[key] === undefined))
      push(run, { keyword: "required", path, key });
  }
  for (const [key, child] of Object.entries(value)) {
    const childPath = [...path, key];
    if (Object.hasOwn(properties, key)) {
      check(run, child, properties[key], childPath);
      continue;
    }
    const matched = patterns.filter(([pattern]) => regexFor(run, pattern).test(key));
    if (matched.length > 0) {
      for (const [, sub] of matched) check(run, child, sub, childPath);
    } else if (isNode(schema.additionalProperties)) {
      check(run, child, schema.additionalProperties, childPath);
    } else {
      push(run, {
        keyword: "additionalProperties",
        path,
        key,
        closed: schema.additionalProperties === false,
        names: Object.keys(properties),
        patterns: patterns.map(([pattern]) => pattern),
      });
    }
  }
}

function check(run: Run, value: unknown, raw: unknown, path: SchemaPath): void {
  if (run.tally.failures >= run.maxFailures) return;
  if (raw === false) {
    push(run, { keyword: "false", path });
    return;
  }
  if (!isNode(raw)) return;
  const scoped = isNode(raw.$defs) ? { ...run, defs: [...run.defs, raw.$defs] } : run;
  const schema = resolveRef(scoped, raw);
  const branches = branchesOf(schema);
  if (branches) {
    checkUnion(scoped, value, branches, path);
    return;
  }
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) check(scoped, value, part, path);
  }
  const literals = literalsOf(schema);
  if (literals) {
    if (!literals.some((literal) => literal === value)) {
      const keyword = Object.hasOwn(schema, "const") ? "const" : "enum";
      push(scoped, { keyword, path, allowed: literals, value });
    }
    return;
  }
  const types = typesOf(schema);
  if (types.length > 0 && !types.some((type) => matchesType(value, type))) {
    push(scoped, { keyword: "type", path, types, value });
    return;
  }
  if (typeof value === "string") checkString(scoped, value, schema, path);
  else if (typeof value === "number") checkNumber(scoped, value, schema, path);
  else if (Array.isArray(value)) checkArray(scoped, value, schema, path);
  else if (isNode(value)) checkObject(scoped, value, schema, path);
}

/** Every violation of `value` against the JSON Schema `schema`; empty (or only open unknown keys)
 * when valid. */
export function walkSchema(
  value: unknown,
  schema: unknown,
  options: WalkOptions = {},
): SchemaViolation[] {
  const run: Run = {
    defs: [],
    patterns: new Map(),
    out: [],
    tally: { failures: 0 },
    maxFailures: options.maxFailures ?? Number.POSITIVE_INFINITY,
  };
  check(run, value, schema, []);
  return run.out;
}
