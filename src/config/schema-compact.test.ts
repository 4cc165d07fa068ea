import { describe, expect, it } from "vitest";
import { compactSchema, hoistRepeatedSchemas } from "./schema-compact.js";
import { validateAgainstSchema } from "./schema-validator.js";

const shared = {
  type: "object",
  description: "a channel",
  properties: {
    enabled: { type: "boolean" },
    dmPolicy: { anyOf: [{ const: "open" }, { const: "pairing" }] },
  },
  additionalProperties: false,
};

describe("compactSchema", () => {
  it("hoists repeated sub-schemas into $defs and drops descriptions", () => {
    const root = { type: "object", properties: { a: shared, b: shared, c: { type: "string" } } };
    const compact = compactSchema(root);
    expect(compact.properties).toEqual({
      a: { $ref: "#/$defs/s0" },
      b: { $ref: "#/$defs/s0" },
      c: { type: "string" },
    });
    expect(JSON.stringify(compact)).not.toContain("description");
  });
  it("never hoists a properties map itself, only schemas", () => {
    const props = {
      x: { type: "string", minLength: 1, pattern: "^[a-z]+$", maxLength: 64, format: "abcdefgh" },
    };
    const root = {
      type: "object",
      properties: {
        p: { type: "object", properties: props },
        q: { type: "object", properties: props },
      },
    };
    const hoisted = hoistRepeatedSchemas(root) as { properties: Record<string, unknown> };
    expect(hoisted.properties.p).toEqual({ $ref: "#/$defs/s0" });
  });
  it("validates the same way before and after", () => {
    const root = {
      type: "object",
      properties: { a: shared, b: shared },
      additionalProperties: false,
    };
    const value = { a: { enabled: "yes" }, b: { dmPolicy: "opne" }, z: 1 };
    const plain = JSON.parse(JSON.stringify(root, (k, v) => (k === "description" ? undefined : v)));
    expect(validateAgainstSchema(value, compactSchema(root))).toEqual(
      validateAgainstSchema(value, plain),
    );
    expect(validateAgainstSchema(value, plain).length).toBe(3);
  });
});
