// Provider-specific cleanup of tool parameter schemas. Gemini (google-generative-ai, google-vertex, …)
// rejects several JSON Schema keywords; OpenAI and Anthropic accept TypeBox's output as is.
import type { TSchema } from "typebox";

type JsonObject = Record<string, unknown>;

/** Keywords Gemini's function declarations reject; dropped wherever a schema appears. */
const GEMINI_DROPPED = new Set([
  "$schema",
  "$id",
  "$comment",
  "$defs",
  "definitions",
  "additionalProperties",
  "patternProperties",
  "unevaluatedProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "if",
  "then",
  "else",
  "not",
  "examples",
  "readOnly",
  "writeOnly",
  "contentEncoding",
  "contentMediaType",
]);

/** String formats Gemini accepts; any other `format` is dropped. */
const GEMINI_FORMATS = new Set(["enum", "date-time"]);

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when the api or provider id is one of Google's Gemini APIs. */
export function needsGeminiSchema(apiOrProvider: string): boolean {
  const id = apiOrProvider.toLowerCase();
  return id.startsWith("google") || id.includes("gemini");
}

/** anyOf/oneOf of string constants (TypeBox's union of literals) → one string enum. */
function literalEnum(variants: unknown[]): string[] | undefined {
  const values: string[] = [];
  for (const variant of variants) {
    if (!isObject(variant)) return undefined;
    if (typeof variant.const === "string") values.push(variant.const);
    else if (Array.isArray(variant.enum) && variant.enum.every((v) => typeof v === "string")) {
      values.push(...(variant.enum as string[]));
    } else return undefined;
  }
  return values.length > 0 ? values : undefined;
}

function cleanVariants(
  out: JsonObject,
  union: { key: "anyOf" | "oneOf"; variants: unknown[] },
): void {
  const { key, variants } = union;
  const nonNull = variants.filter((v) => !(isObject(v) && v.type === "null"));
  if (nonNull.length < variants.length) out.nullable = true;
  const values = literalEnum(nonNull);
  if (values) {
    out.type = "string";
    out.enum = values;
  } else if (nonNull.length === 1 && isObject(nonNull[0])) {
    Object.assign(out, cleanGemini(nonNull[0]));
  } else {
    out[key] = nonNull.map(cleanGemini);
  }
}

function cleanGemini(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (GEMINI_DROPPED.has(key)) continue;
    if (key === "properties" && isObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, cleanGemini(child)]),
      );
    } else if (key === "items") {
      out.items = Array.isArray(value) ? value.map(cleanGemini) : cleanGemini(value);
    } else if ((key === "anyOf" || key === "oneOf") && Array.isArray(value)) {
      cleanVariants(out, { key, variants: value });
    } else if (key === "allOf" && Array.isArray(value)) {
      out.allOf = value.map(cleanGemini);
    } else if (key === "const") {
      out.enum = [value];
      if (out.type === undefined && schema.type === undefined) out.type = typeof value;
    } else if (key === "format") {
      if (typeof value === "string" && GEMINI_FORMATS.has(value)) out.format = value;
    } else if (key === "type" && Array.isArray(value)) {
      const types = value.filter((t) => t !== "null");
      if (types.length < value.length) out.nullable = true;
      out.type = types.length === 1 ? types[0] : types;
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * A tool parameter schema in the dialect `apiOrProvider` accepts: Gemini's subset for Google APIs,
 * unchanged (the same object) for every other API.
 */
export function normalizeToolSchema(schema: TSchema, apiOrProvider: string): TSchema {
  if (!needsGeminiSchema(apiOrProvider)) return schema;
  return cleanGemini(schema) as TSchema;
}
