// Config's wording of schema violations (`lib/schema-walk.ts` finds them): one plain-words message
// per problem, on the path of the offending (or missing) value, with did-you-mean; never a raw
// error dump. A failed union says what it expected, or reports the branch closest to the value.
import { closestMatch } from "../lib/edit-distance.js";
import { type SchemaForm, type SchemaViolation, walkSchema } from "../lib/schema-walk.js";
import type { PathSegment } from "./config-path.js";
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

const error = (segments: PathSegment[], message: string): SchemaIssue => ({
  severity: "error",
  segments,
  message,
});

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

function itemCount(count: number): string {
  return `${count} item${count === 1 ? "" : "s"}`;
}

function acceptedTypes(forms: SchemaForm[]): Set<JsonType | "any"> {
  const types = new Set<JsonType | "any">();
  for (const form of forms) {
    if ("literal" in form) types.add(jsonTypeOf(form.literal));
    else if ("type" in form)
      types.add((form.type === "integer" ? "number" : form.type) as JsonType);
    else if ("object" in form) types.add("object");
    else if ("any" in form) types.add("any");
  }
  return types;
}

function describeForm(form: SchemaForm): string {
  if ("literal" in form) return formatLiteral(form.literal);
  if ("type" in form) return describeType(form.type);
  return "object" in form ? "an object" : "any value";
}

function errorCount(issues: SchemaIssue[]): number {
  return issues.filter((issue) => issue.severity === "error").length;
}

/** A failed union: one literal message, one "expected X or Y", or the closest branch's issues. */
function unionIssues(violation: Extract<SchemaViolation, { keyword: "anyOf" }>): SchemaIssue[] {
  const { value, branches, path } = violation;
  const literalBranches = branches.map((branch) => branch.literals);
  if (literalBranches.every((literals) => literals !== undefined)) {
    return [error(path, literalMessage(value, literalBranches.flat()))];
  }
  const type = jsonTypeOf(value);
  const structural = branches.filter((branch) => {
    if (branch.literals !== undefined) return false;
    const types = acceptedTypes(branch.forms);
    return types.has(type) || types.has("any");
  });
  if (structural.length === 0) {
    const expected = [...new Set(branches.flatMap((branch) => branch.forms.map(describeForm)))];
    const hint = didYouMean(value, literalBranches.flat());
    return [
      error(path, `expected ${joinAlternatives(expected)}, got ${describeValue(value)}${hint}`),
    ];
  }
  let best = wordAll(structural[0].violations);
  for (const branch of structural.slice(1)) {
    const issues = wordAll(branch.violations);
    if (errorCount(issues) < errorCount(best)) best = issues;
  }
  return best;
}

/** An unknown key: an error when the object is closed, a typo warning when it is open. */
function unknownKeyIssues(
  violation: Extract<SchemaViolation, { keyword: "additionalProperties" }>,
): SchemaIssue[] {
  const { key, names, patterns, closed } = violation;
  const suggestion = closestMatch(key, names);
  const hint = suggestion === undefined ? "" : ` — did you mean ${JSON.stringify(suggestion)}?`;
  const path = [...violation.path, key];
  if (closed) {
    const rule =
      names.length === 0 && patterns.length > 0
        ? ` (keys must match /${patterns.join("/ or /")}/)`
        : "";
    return [error(path, `unknown key ${JSON.stringify(key)}${rule}${hint}`)];
  }
  if (suggestion === undefined) return [];
  return [
    { severity: "warning", segments: path, message: `unknown key ${JSON.stringify(key)}${hint}` },
  ];
}

function numberMessage(words: string, limit: number, value: number): string {
  return `${words} ${limit} (got ${value})`;
}

function word(violation: SchemaViolation): SchemaIssue[] {
  const { path } = violation;
  switch (violation.keyword) {
    case "false":
      return [error(path, "is not allowed here")];
    case "type": {
      const expected = joinAlternatives(violation.types.map(describeType));
      return [error(path, `expected ${expected}, got ${describeValue(violation.value)}`)];
    }
    case "const":
    case "enum":
      return [error(path, literalMessage(violation.value, violation.allowed))];
    case "anyOf":
      return unionIssues(violation);
    case "minLength": {
      const { limit, value } = violation;
      const message =
        limit === 1
          ? "must not be empty"
          : `must be at least ${limit} characters long (got ${value.length})`;
      return [error(path, message)];
    }
    case "maxLength":
      return [
        error(
          path,
          `must be at most ${violation.limit} characters long (got ${violation.value.length})`,
        ),
      ];
    case "pattern":
      return [
        error(
          path,
          `must match the pattern /${violation.pattern}/ (got ${previewString(violation.value)})`,
        ),
      ];
    case "minimum":
      return [error(path, numberMessage("must be at least", violation.limit, violation.value))];
    case "maximum":
      return [error(path, numberMessage("must be at most", violation.limit, violation.value))];
    case "exclusiveMinimum":
      return [error(path, numberMessage("must be greater than", violation.limit, violation.value))];
    case "exclusiveMaximum":
      return [error(path, numberMessage("must be less than", violation.limit, violation.value))];
    case "minItems":
    case "maxItems": {
      const words = violation.keyword === "minItems" ? "at least" : "at most";
      const message = `must have ${words} ${itemCount(violation.limit)} (got ${violation.value.length})`;
      return [error(path, message)];
    }
    case "items": {
      const message = `unexpected item: at most ${itemCount(violation.allowed)} allowed`;
      return [error([...path, violation.index], message)];
    }
    case "required":
      return [
        error([...path, violation.key], `missing required key ${JSON.stringify(violation.key)}`),
      ];
    case "additionalProperties":
      return unknownKeyIssues(violation);
  }
}

function wordAll(violations: SchemaViolation[]): SchemaIssue[] {
  return violations.flatMap(word);
}

/** Validates `value` against a (TypeBox-built) JSON Schema; returns every problem found. */
export function validateAgainstSchema(value: unknown, schema: unknown): SchemaIssue[] {
  return wordAll(walkSchema(value, schema));
}
