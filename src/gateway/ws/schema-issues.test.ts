import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GATEWAY_SCHEMAS } from "../../protocol/gateway/schema.generated.js";
import { formatIssues, validateSchema } from "./schema-issues.js";

const check = (name: keyof typeof GATEWAY_SCHEMAS, value: unknown) =>
  formatIssues(validateSchema(GATEWAY_SCHEMAS[name], value));

describe("gateway schema issues", () => {
  it("words problems in OpenClaw's ajv style", () => {
    expect(check("chat.history", { sessionKey: "", limit: 0 })).toBe(
      "at /sessionKey: must NOT have fewer than 1 characters; at /limit: must be >= 1",
    );
    expect(check("sessions.patch", { key: "k", sendPolicy: "maybe" })).toBe(
      "at /sendPolicy: must match a schema in anyOf",
    );
    expect(check("sessions.preview", { keys: [] })).toBe(
      "at /keys: must NOT have fewer than 1 items",
    );
  });

  it("refuses a key named like an Object.prototype member where no such property exists", () => {
    expect(check("sessions.reset", { key: "k", constructor: 1 })).toBe(
      "at root: unexpected property 'constructor'",
    );
    expect(check("agent.wait", { runId: "r", hasOwnProperty: true })).toBe(
      "at root: unexpected property 'hasOwnProperty'",
    );
  });

  it("lists at most a few problems of a value that is wrong everywhere", () => {
    const value = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, { x: 1 }]));
    const issues = validateSchema(
      { type: "object", additionalProperties: { type: "string" } },
      value,
    );
    expect(issues).toHaveLength(5);
  });

  it("loads no TypeBox: the walker and this module run on plain JSON schemas", () => {
    for (const file of ["./schema-issues.ts", "../../lib/schema-walk.ts"]) {
      expect(readFileSync(new URL(file, import.meta.url), "utf8")).not.toMatch(
        /from "[^"]*typebox/,
      );
    }
  });
});
