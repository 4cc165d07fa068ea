// Plain-words descriptions of JSON values and JSON Schema types, for validation messages.

/** JSON type name of a value: string, number, boolean, null, array or object. */
export type JsonType = "string" | "number" | "boolean" | "null" | "array" | "object";

/** The JSON type of a runtime value (undefined and functions count as null). */
export function jsonTypeOf(value: unknown): JsonType {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  const kind = typeof value;
  if (kind === "string" || kind === "number" || kind === "boolean") return kind;
  return kind === "object" ? "object" : "null";
}

/** Article + type name as used in messages: `a string`, `an integer`, `null`. */
export function describeType(type: string): string {
  if (type === "null") return "null";
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Short preview of a string for messages, truncated with an ellipsis. */
export function previewString(text: string, max = 40): string {
  const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return JSON.stringify(short);
}

/** Describes a value: `a string ("18789")`, `a number (5)`, `an object`, `null`. */
export function describeValue(value: unknown): string {
  const type = jsonTypeOf(value);
  if (type === "string") return `a string (${previewString(value as string)})`;
  if (type === "number" || type === "boolean") return `${describeType(type)} (${String(value)})`;
  return describeType(type);
}

/** A literal as written in messages: strings quoted, others as JSON. */
export function formatLiteral(value: unknown): string {
  return typeof value === "string" ? previewString(value, 60) : JSON.stringify(value);
}

/** Joins alternatives as `A or B` / `A, B or C`. */
export function joinAlternatives(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
