// A small recursive validator over the JSON Schema that TypeBox produces. It walks schema and value
// together and writes one plain-words message per problem (with did-you-mean), never a raw error dump.
import { closestMatch } from "../lib/edit-distance.js";
import { isPlainObject, type PathSegment } from "./config-path.js";
import {
  describeType,
  describeValue,
  formatLiteral,
  type JsonType,
  joinAlternatives,
  jsonTypeOf,
  previewString,
} from "./describe-value.js";

/** One schema problem; `segments` is the path of the offending (or missing) value. */
export interface SchemaIssue {
  severity: "error" | "warning";
  segments: PathSegment[];
  message: string;
}

type SchemaNode = Record<string, unknown>;

/** One step of the walk: a value, the schema it must satisfy, and where it stands. */
interface Visit<V = unknown, S = unknown> {
  value: V;
  schema: S;
  segments: PathSegment[];
}

interface Run {
  defs: Array<Record<string, unknown>>;
  patterns: Map<string, RegExp>;
  out: SchemaIssue[];
}

const error = (segments: PathSegment[], message: string): SchemaIssue => ({
  severity: "error",
  segments,
  message,
});

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
    if (isPlainObject(target)) return target;
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

function typesOf(schema: SchemaNode): unknown[] {
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type === undefined ? [] : [schema.type];
}

/** JSON types a schema can accept; `any` when it does not constrain the type. */
function acceptedTypes(run: Run, raw: unknown): Set<JsonType | "any"> {
  if (!isPlainObject(raw)) return new Set(raw === false ? [] : ["any"]);
  const schema = resolveRef(run, raw);
  const literals = literalsOf(schema);
  if (literals) return new Set(literals.map(jsonTypeOf));
  const branches = branchesOf(schema);
  if (branches) return new Set(branches.flatMap((branch) => [...acceptedTypes(run, branch)]));
  const types = typesOf(schema);
  if (types.length > 0) {
    return new Set(types.map((type) => (type === "integer" ? "number" : type) as JsonType));
  }
  return new Set([isPlainObject(schema.properties) ? "object" : "any"]);
}

function describeSchema(run: Run, raw: unknown): string[] {
  if (!isPlainObject(raw)) return ["any value"];
  const schema = resolveRef(run, raw);
  const literals = literalsOf(schema);
  if (literals) return literals.map(formatLiteral);
  const branches = branchesOf(schema);
  if (branches) return branches.flatMap((branch) => describeSchema(run, branch));
  const types = typesOf(schema);
  if (types.length > 0) return types.map((type) => describeType(String(type)));
  return isPlainObject(schema.properties) ? ["an object"] : ["any value"];
}

function didYouMean(value: unknown, literals: unknown[]): string {
  if (typeof value !== "string") return "";
  const words = literals.filter((item): item is string => typeof item === "string");
  const match = closestMatch(value, words);
  return match === undefined ? "" : ` — did you mean ${JSON.stringify(match)}?`;
}

function literalMessage(value: unknown, literals: unknown[]): string {
  const got = typeof value === "string" ? previewString(value) : describeValue(value);
  const list = literals.map(formatLiteral).join(", ");
  const head = literals.length === 1 ? `must be ${list}` : `must be one of ${list}`;
  return `${head} (got ${got})${didYouMean(value, literals)}`;
}

function matchesType(value: unknown, type: unknown): boolean {
  if (type === "integer") return typeof value === "number" && Number.isInteger(value);
  return jsonTypeOf(value) === type;
}

function collect(run: Run, visit: Visit): SchemaIssue[] {
  const sub: Run = { ...run, out: [] };
  check(sub, visit);
  return sub.out;
}

function errorCount(issues: SchemaIssue[]): number {
  return issues.filter((issue) => issue.severity === "error").length;
}

/** anyOf: accept if a branch accepts; else one literal message, one "expected X or Y", or the best branch. */
function checkUnion(run: Run, visit: Visit<unknown, unknown[]>): void {
  const { value, schema: branches, segments } = visit;
  const attempts = branches.map((branch) => collect(run, { value, schema: branch, segments }));
  const passing = attempts.find((issues) => errorCount(issues) === 0);
  if (passing) {
    run.out.push(...passing);
    return;
  }
  const literalBranches = branches.map((branch) =>
    isPlainObject(branch) ? literalsOf(resolveRef(run, branch)) : undefined,
  );
  if (literalBranches.every((literals) => literals !== undefined)) {
    run.out.push(error(segments, literalMessage(value, literalBranches.flat())));
    return;
  }
  const type = jsonTypeOf(value);
  const structural = branches
    .map((branch, index) => ({ index, types: acceptedTypes(run, branch) }))
    .filter(({ index }) => literalBranches[index] === undefined)
    .filter(({ types }) => types.has(type) || types.has("any"));
  if (structural.length === 0) {
    const expected = [...new Set(branches.flatMap((branch) => describeSchema(run, branch)))];
    const hint = didYouMean(value, literalBranches.flat());
    const message = `expected ${joinAlternatives(expected)}, got ${describeValue(value)}${hint}`;
    run.out.push(error(segments, message));
    return;
  }
  let best = attempts[structural[0].index];
  for (const { index } of structural.slice(1)) {
    if (errorCount(attempts[index]) < errorCount(best)) best = attempts[index];
  }
  run.out.push(...best);
}

function checkString(run: Run, { value, schema, segments }: Visit<string, SchemaNode>): void {
  const { minLength, maxLength, pattern } = schema;
  if (typeof minLength === "number" && value.length < minLength) {
    const message =
      minLength === 1
        ? "must not be empty"
        : `must be at least ${minLength} characters long (got ${value.length})`;
    run.out.push(error(segments, message));
  }
  if (typeof maxLength === "number" && value.length > maxLength) {
    const message = `must be at most ${maxLength} characters long (got ${value.length})`;
    run.out.push(error(segments, message));
  }
  if (typeof pattern === "string" && !regexFor(run, pattern).test(value)) {
    const message = `must match the pattern /${pattern}/ (got ${previewString(value)})`;
    run.out.push(error(segments, message));
  }
}

function checkNumber(run: Run, { value, schema, segments }: Visit<number, SchemaNode>): void {
  const bounds: Array<[unknown, (limit: number) => boolean, string]> = [
    [schema.minimum, (limit) => value < limit, "must be at least"],
    [schema.maximum, (limit) => value > limit, "must be at most"],
    [schema.exclusiveMinimum, (limit) => value <= limit, "must be greater than"],
    [schema.exclusiveMaximum, (limit) => value >= limit, "must be less than"],
  ];
  for (const [limit, broken, words] of bounds) {
    if (typeof limit === "number" && broken(limit)) {
      run.out.push(error(segments, `${words} ${limit} (got ${value})`));
    }
  }
}

function itemCount(count: number): string {
  return `${count} item${count === 1 ? "" : "s"}`;
}

function checkArray(run: Run, { value, schema, segments }: Visit<unknown[], SchemaNode>): void {
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
      const message = `unexpected item: at most ${itemCount(tuple?.length ?? 0)} allowed`;
      run.out.push(error([...segments, index], message));
    } else {
      check(run, { value: item, schema: itemSchema, segments: [...segments, index] });
    }
  });
  if (typeof minItems === "number" && value.length < minItems) {
    run.out.push(
      error(segments, `must have at least ${itemCount(minItems)} (got ${value.length})`),
    );
  }
  if (typeof maxItems === "number" && value.length > maxItems) {
    run.out.push(error(segments, `must have at most ${itemCount(maxItems)} (got ${value.length})`));
  }
}

/** A key no property or pattern covers: an error when closed, a typo warning when open. */
function unknownKey(run: Run, { value: key, schema, segments }: Visit<string, SchemaNode>): void {
  const names = isPlainObject(schema.properties) ? Object.keys(schema.properties) : [];
  const suggestion = closestMatch(key, names);
  const hint = suggestion === undefined ? "" : ` — did you mean ${JSON.stringify(suggestion)}?`;
  const path = [...segments, key];
  if (schema.additionalProperties === false) {
    const patterns = isPlainObject(schema.patternProperties)
      ? Object.keys(schema.patternProperties)
      : [];
    const rule =
      names.length === 0 && patterns.length > 0
        ? ` (keys must match /${patterns.join("/ or /")}/)`
        : "";
    run.out.push(error(path, `unknown key ${JSON.stringify(key)}${rule}${hint}`));
  } else if (suggestion !== undefined) {
    const message = `unknown key ${JSON.stringify(key)}${hint}`;
    run.out.push({ severity: "warning", segments: path, message });
  }
}

function checkObject(
  run: Run,
  { value, schema, segments }: Visit<Record<string, unknown>, SchemaNode>,
): void {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const patterns = isPlainObject(schema.patternProperties)
    ? Object.entries(schema.patternProperties)
    : [];
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const key of required) {
    if (typeof key === "string" && (!Object.hasOwn(value, key) || value[key] === undefined)) {
      run.out.push(error([...segments, key], `missing required key ${JSON.stringify(key)}`));
    }
  }
  for (const [key, child] of Object.entries(value)) {
    const path = [...segments, key];
    if (Object.hasOwn(properties, key)) {
      check(run, { value: child, schema: properties[key], segments: path });
      continue;
    }
    const matched = patterns.filter(([pattern]) => regexFor(run, pattern).test(key));
    if (matched.length > 0) {
      for (const [, sub] of matched) check(run, { value: child, schema: sub, segments: path });
    } else if (isPlainObject(schema.additionalProperties)) {
      check(run, { value: child, schema: schema.additionalProperties, segments: path });
    } else {
      unknownKey(run, { value: key, schema, segments });
    }
  }
}

function check(run: Run, visit: Visit): void {
  const { value, segments } = visit;
  if (visit.schema === false) {
    run.out.push(error(segments, "is not allowed here"));
    return;
  }
  if (!isPlainObject(visit.schema)) return;
  const raw = visit.schema;
  const scoped = isPlainObject(raw.$defs) ? { ...run, defs: [...run.defs, raw.$defs] } : run;
  const schema = resolveRef(scoped, raw);
  const branches = branchesOf(schema);
  if (branches) {
    checkUnion(scoped, { value, schema: branches, segments });
    return;
  }
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) check(scoped, { value, schema: part, segments });
  }
  const literals = literalsOf(schema);
  if (literals) {
    if (!literals.some((literal) => literal === value)) {
      scoped.out.push(error(segments, literalMessage(value, literals)));
    }
    return;
  }
  const types = typesOf(schema);
  if (types.length > 0 && !types.some((type) => matchesType(value, type))) {
    const expected = joinAlternatives(types.map((type) => describeType(String(type))));
    scoped.out.push(error(segments, `expected ${expected}, got ${describeValue(value)}`));
    return;
  }
  if (typeof value === "string") checkString(scoped, { value, schema, segments });
  else if (typeof value === "number") checkNumber(scoped, { value, schema, segments });
  else if (Array.isArray(value)) checkArray(scoped, { value, schema, segments });
  else if (isPlainObject(value)) checkObject(scoped, { value, schema, segments });
}

/** Validates `value` against a (TypeBox-built) JSON Schema; returns every problem found. */
export function validateAgainstSchema(value: unknown, schema: unknown): SchemaIssue[] {
  const run: Run = { defs: [], patterns: new Map(), out: [] };
  check(run, { value, schema, segments: [] });
  return run.out;
}
