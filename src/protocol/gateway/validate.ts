// A small JSON Schema checker for the protocol's generated schemas (the subset TypeBox emits here:
// type, properties, required, additionalProperties, const, anyOf, items, string/number/array bounds),
// with OpenClaw's ajv-style messages: "must have required property 'idempotencyKey'".

type Node = Record<string, unknown>;

/** One problem: JSON pointer of the value (`""` = root) and an ajv-style message. */
export interface ParamsIssue {
  pointer: string;
  message: string;
}

const MAX_ISSUES = 5;

function typeMatches(type: unknown, value: unknown): boolean {
  switch (type) {
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return true;
  }
}

function checkScalar(schema: Node, value: unknown, pointer: string, out: ParamsIssue[]): void {
  if (typeof value === "string") {
    if (typeof schema.minLength === "number" && value.length < schema.minLength)
      out.push({ pointer, message: `must NOT have fewer than ${schema.minLength} characters` });
    if (typeof schema.maxLength === "number" && value.length > schema.maxLength)
      out.push({ pointer, message: `must NOT have more than ${schema.maxLength} characters` });
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum)
      out.push({ pointer, message: `must be >= ${schema.minimum}` });
    if (typeof schema.maximum === "number" && value > schema.maximum)
      out.push({ pointer, message: `must be <= ${schema.maximum}` });
  }
}

function checkObject(
  schema: Node,
  value: Record<string, unknown>,
  pointer: string,
  out: ParamsIssue[],
) {
  const properties = (schema.properties ?? {}) as Record<string, Node>;
  for (const key of (schema.required ?? []) as string[]) {
    if (!Object.hasOwn(value, key) || value[key] === undefined)
      out.push({ pointer, message: `must have required property '${key}'` });
  }
  for (const [key, child] of Object.entries(value)) {
    const sub = properties[key];
    if (sub) walk(sub, child, `${pointer}/${key}`, out);
    else if (schema.additionalProperties === false)
      out.push({ pointer, message: `unexpected property '${key}'` });
    else if (typeof schema.additionalProperties === "object")
      walk(schema.additionalProperties as Node, child, `${pointer}/${key}`, out);
    else if (typeof schema.patternProperties === "object") {
      for (const sub of Object.values(schema.patternProperties as Record<string, Node>))
        walk(sub, child, `${pointer}/${key}`, out);
    }
  }
}

function walk(schema: Node, value: unknown, pointer: string, out: ParamsIssue[]): void {
  if (out.length >= MAX_ISSUES) return;
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as Node[];
    if (branches.some((branch) => validateSchema(branch, value).length === 0)) return;
    const allConst = branches.every((branch) => Object.hasOwn(branch, "const"));
    out.push({
      pointer,
      message: allConst
        ? "must be equal to one of the allowed values"
        : "must match a schema in anyOf",
    });
    return;
  }
  if (Object.hasOwn(schema, "const") && value !== schema.const) {
    out.push({ pointer, message: `must be equal to constant ${JSON.stringify(schema.const)}` });
    return;
  }
  if (schema.type !== undefined && !typeMatches(schema.type, value)) {
    out.push({ pointer, message: `must be ${String(schema.type)}` });
    return;
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems)
      out.push({ pointer, message: `must NOT have fewer than ${schema.minItems} items` });
    if (typeof schema.items === "object" && schema.items !== null)
      for (const [index, item] of value.entries()) {
        walk(schema.items as Node, item, `${pointer}/${index}`, out);
      }
    return;
  }
  if (typeof value === "object" && value !== null) {
    checkObject(schema, value as Record<string, unknown>, pointer, out);
    return;
  }
  checkScalar(schema, value, pointer, out);
}

/** Every problem (at most a few) of `value` against `schema`; empty when valid. */
export function validateSchema(schema: unknown, value: unknown): ParamsIssue[] {
  const out: ParamsIssue[] = [];
  walk(schema as Node, value, "", out);
  return out;
}

/** Formats issues as OpenClaw does: root issues bare, others prefixed `at /path:`. */
export function formatIssues(issues: ParamsIssue[]): string {
  return issues
    .map((issue) =>
      issue.pointer === ""
        ? issue.message.startsWith("unexpected")
          ? `at root: ${issue.message}`
          : issue.message
        : `at ${issue.pointer}: ${issue.message}`,
    )
    .join("; ");
}
