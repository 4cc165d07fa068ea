// The gateway's wording of schema violations (`lib/schema-walk.ts` finds them) for INVALID_REQUEST
// answers, in OpenClaw's ajv style: "must have required property 'idempotencyKey'", "at
// /client/id: must be equal to one of the allowed values". Validates against the plain JSON of
// `protocol/gateway/schema.generated.ts`, so the gateway never loads TypeBox.
import { isFailure, type SchemaViolation, walkSchema } from "../../lib/schema-walk.js";

/** One problem: JSON pointer of the value (`""` = root) and an ajv-style message. */
export interface ParamsIssue {
  pointer: string;
  message: string;
}

/** The walk stops descending after this many problems (a bad frame need not be listed whole). */
const MAX_ISSUES = 5;

function pointerOf(path: readonly (string | number)[]): string {
  return path.map((segment) => `/${segment}`).join("");
}

function messageOf(violation: SchemaViolation): string {
  switch (violation.keyword) {
    case "false":
      return "boolean schema is false";
    case "type":
      return `must be ${violation.types.join(",")}`;
    case "const":
      return `must be equal to constant ${JSON.stringify(violation.allowed[0])}`;
    case "enum":
      return "must be equal to one of the allowed values";
    case "anyOf":
      return violation.branches.every((branch) => branch.literals !== undefined)
        ? "must be equal to one of the allowed values"
        : "must match a schema in anyOf";
    case "minLength":
      return `must NOT have fewer than ${violation.limit} characters`;
    case "maxLength":
      return `must NOT have more than ${violation.limit} characters`;
    case "pattern":
      return `must match pattern "${violation.pattern}"`;
    case "minimum":
      return `must be >= ${violation.limit}`;
    case "maximum":
      return `must be <= ${violation.limit}`;
    case "exclusiveMinimum":
      return `must be > ${violation.limit}`;
    case "exclusiveMaximum":
      return `must be < ${violation.limit}`;
    case "minItems":
      return `must NOT have fewer than ${violation.limit} items`;
    case "maxItems":
      return `must NOT have more than ${violation.limit} items`;
    case "items":
      return `must NOT have more than ${violation.allowed} items`;
    case "required":
      return `must have required property '${violation.key}'`;
    case "additionalProperties":
      return `unexpected property '${violation.key}'`;
  }
}

/** Every problem (at most a few) of `value` against `schema`; empty when valid. An unknown key of
 * an object that allows other keys is no problem here. */
export function validateSchema(schema: unknown, value: unknown): ParamsIssue[] {
  return walkSchema(value, schema, { maxFailures: MAX_ISSUES })
    .filter(isFailure)
    .map((violation) => ({ pointer: pointerOf(violation.path), message: messageOf(violation) }));
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
