// Turns the TypeBox-built config schema into the compact JSON Schema shipped as
// src/protocol/config/schema.generated.ts: descriptions dropped, repeated sub-schemas hoisted
// into $defs. 650 kB of expanded schema becomes ~50 kB, cheap to load at start-up.

type SchemaObject = Record<string, unknown>;

const MIN_HOISTED_CHARS = 120;
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs"]);
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf"]);
const SCHEMA_VALUES = new Set(["items", "additionalProperties", "additionalItems", "not"]);

function isObject(value: unknown): value is SchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Rebuilds `schema`, passing every direct sub-schema (schema positions only) through `visit`. */
function mapChildren(
  schema: SchemaObject,
  visit: (child: SchemaObject) => SchemaObject,
): SchemaObject {
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [
          name,
          isObject(child) ? visit(child) : child,
        ]),
      );
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((child) => (isObject(child) ? visit(child) : child));
    } else if (SCHEMA_VALUES.has(key) && isObject(value)) {
      out[key] = visit(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Annotation keys (`x-pincer*`, see acceptedForCompat) kept beside a `$ref`, so a marked copy of a
 *  shared schema still shares its body. */
function splitMarks(schema: SchemaObject): [SchemaObject, SchemaObject | undefined] {
  const marks = Object.keys(schema).filter((key) => key.startsWith("x-pincer"));
  if (marks.length === 0) return [schema, undefined];
  const body: SchemaObject = { ...schema };
  const kept: SchemaObject = {};
  for (const key of marks) {
    kept[key] = schema[key];
    delete body[key];
  }
  return [body, kept];
}

/** Returns `schema` with every sub-schema that occurs twice or more replaced by a `$ref` into `$defs`. */
export function hoistRepeatedSchemas(root: SchemaObject): SchemaObject {
  const counts = new Map<string, number>();
  const count = (marked: SchemaObject): SchemaObject => {
    const [schema] = splitMarks(marked);
    const key = JSON.stringify(schema);
    if (key.length >= MIN_HOISTED_CHARS) counts.set(key, (counts.get(key) ?? 0) + 1);
    mapChildren(schema, count);
    return marked;
  };
  count(root);
  const defs: SchemaObject = {};
  const names = new Map<string, string>();
  const hoist = (marked: SchemaObject): SchemaObject => {
    const [schema, marks] = splitMarks(marked);
    const body = hoistBody(schema);
    return marks ? { ...body, ...marks } : body;
  };
  const hoistBody = (schema: SchemaObject): SchemaObject => {
    const key = JSON.stringify(schema);
    if ((counts.get(key) ?? 0) < 2) return mapChildren(schema, hoist);
    let name = names.get(key);
    if (!name) {
      name = `s${names.size}`;
      names.set(key, name);
      defs[name] = mapChildren(schema, hoist);
    }
    return { $ref: `#/$defs/${name}` };
  };
  return { ...mapChildren(root, hoist), $defs: defs };
}

/** The run-time form of a schema: plain JSON, no descriptions, repeated parts hoisted. */
export function compactSchema(schema: unknown): SchemaObject {
  const plain: unknown = JSON.parse(
    JSON.stringify(schema, (key, value) =>
      // An annotation (a string); a property named "description" is a schema (an object) and stays.
      key === "description" && typeof value === "string" ? undefined : value,
    ),
  );
  if (!isObject(plain)) throw new TypeError("compactSchema: the schema must be an object");
  return hoistRepeatedSchemas(plain);
}
