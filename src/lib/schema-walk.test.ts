import { describe, expect, it } from "vitest";
import { isFailure, walkSchema } from "./schema-walk.js";

const Agent = {
  type: "object",
  required: ["id"],
  properties: {
    id: { type: "string", minLength: 1 },
    mode: { anyOf: [{ const: "a" }, { const: "b" }] },
    port: { anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }] },
  },
  additionalProperties: false,
};

describe("walkSchema", () => {
  it("reports facts, not words: the object's path for required and unknown keys", () => {
    expect(walkSchema({ idd: "x" }, Agent)).toEqual([
      { keyword: "required", path: [], key: "id" },
      {
        keyword: "additionalProperties",
        path: [],
        key: "idd",
        closed: true,
        names: ["id", "mode", "port"],
        patterns: [],
      },
    ]);
  });

  it("reports a failed union once, with what each branch found and accepts", () => {
    const [union] = walkSchema({ id: "x", port: 0 }, Agent);
    expect(union).toMatchObject({ keyword: "anyOf", path: ["port"], value: 0 });
    if (union.keyword !== "anyOf") throw new Error("not a union");
    expect(union.branches.map((branch) => branch.forms)).toEqual([
      [{ type: "integer" }],
      [{ type: "null" }],
    ]);
    expect(union.branches[0].violations).toEqual([
      { keyword: "minimum", path: ["port"], limit: 1, value: 0 },
    ]);
    expect(walkSchema({ id: "x", mode: "c" }, Agent)[0]).toMatchObject({
      keyword: "anyOf",
      branches: [{ literals: ["a"] }, { literals: ["b"] }],
    });
  });

  it("resolves $ref against $defs, and an unknown key of an open object is no failure", () => {
    const schema = {
      $defs: { Name: { type: "string" } },
      type: "object",
      properties: { name: { $ref: "#/$defs/Name" } },
    };
    const found = walkSchema({ name: 5, nmae: "x" }, schema);
    expect(found.map((violation) => [violation.keyword, isFailure(violation)])).toEqual([
      ["type", true],
      ["additionalProperties", false],
    ]);
  });

  it("treats a key of Object.prototype like any other key", () => {
    const found = walkSchema(
      { constructor: 1, toString: 2 },
      { type: "object", properties: {}, additionalProperties: false },
    );
    expect(
      found.map((violation) => violation.keyword === "additionalProperties" && violation.key),
    ).toEqual(["constructor", "toString"]);
  });

  it("stops descending once maxFailures failures were found", () => {
    const schema = { type: "array", items: { type: "string" } };
    expect(walkSchema([1, 2, 3, 4], schema)).toHaveLength(4);
    expect(walkSchema([1, 2, 3, 4], schema, { maxFailures: 2 })).toHaveLength(2);
  });

  it("stops at the first union branch that passes: later branches are not walked", () => {
    const touched: string[] = [];
    // A branch that records every keyword the walker reads from it.
    const watched = new Proxy(
      { type: "string", minLength: 100 },
      {
        get(target, key, receiver) {
          touched.push(String(key));
          return Reflect.get(target, key, receiver);
        },
      },
    );
    const schema = { anyOf: [{ type: "number" }, { type: "string" }, watched] };
    expect(walkSchema("short", schema)).toEqual([]);
    expect(touched).toEqual([]);
    // Still walked (and reported) when no earlier branch passes.
    expect(walkSchema(true, schema)).toMatchObject([{ keyword: "anyOf" }]);
    expect(touched.length).toBeGreaterThan(0);
  });
});
