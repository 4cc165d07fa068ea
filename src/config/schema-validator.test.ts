import Type from "typebox";
import { describe, expect, it } from "vitest";
import { formatConfigPath } from "./config-path.js";
import { validateAgainstSchema } from "./schema-validator.js";

const DmPolicy = Type.Union([
  Type.Literal("pairing"),
  Type.Literal("allowlist"),
  Type.Literal("open"),
  Type.Literal("disabled"),
]);

/** Issues as `severity path: message` strings, easy to compare. */
function check(value: unknown, schema: unknown): string[] {
  return validateAgainstSchema(value, schema).map(
    (issue) => `${issue.severity} ${formatConfigPath(issue.segments)}: ${issue.message}`,
  );
}

describe("validateAgainstSchema: objects", () => {
  const Root = Type.Object(
    { bindings: Type.Optional(Type.Array(Type.Unknown())), agents: Type.Optional(Type.Unknown()) },
    { additionalProperties: false },
  );

  it("reports unknown keys as errors with a did-you-mean when additionalProperties is false", () => {
    expect(check({ bindngs: [], zzzzzz: 1 }, Root)).toEqual([
      'error bindngs: unknown key "bindngs" — did you mean "bindings"?',
      'error zzzzzz: unknown key "zzzzzz"',
    ]);
  });

  it("warns about likely typos only, when additional keys are allowed", () => {
    const Open = Type.Object(
      { bindings: Type.Optional(Type.Unknown()) },
      { additionalProperties: true },
    );
    expect(check({ bindngs: [], custom: 1 }, Open)).toEqual([
      'warning bindngs: unknown key "bindngs" — did you mean "bindings"?',
    ]);
  });

  it("validates additional keys against an additionalProperties schema", () => {
    const NumberMap = Type.Object({}, { additionalProperties: Type.Number() });
    expect(check({ a: 1, b: "x" }, NumberMap)).toEqual([
      'error b: expected a number, got a string ("x")',
    ]);
  });

  it("validates Record values via patternProperties and rejects non-matching keys when closed", () => {
    const Entries = Type.Record(
      Type.String({ pattern: "^[a-z]+$" }),
      Type.Object({ n: Type.Number() }),
    );
    expect(check({ ok: { n: 1 }, bad: { n: "1" } }, Entries)).toEqual([
      'error bad.n: expected a number, got a string ("1")',
    ]);
    const Closed = { ...Entries, additionalProperties: false };
    expect(check({ Upper: { n: 1 } }, Closed)).toEqual([
      'error Upper: unknown key "Upper" (keys must match /^[a-z]+$/)',
    ]);
  });

  it("reports every missing required key and every bad value, not just the first", () => {
    const Agent = Type.Object({
      id: Type.String(),
      port: Type.Integer({ minimum: 1, maximum: 65535 }),
    });
    expect(check([{}, { id: 1, port: 70000 }, { id: "x", port: 1.5 }], Type.Array(Agent))).toEqual([
      'error [0].id: missing required key "id"',
      'error [0].port: missing required key "port"',
      "error [1].id: expected a string, got a number (1)",
      "error [1].port: must be at most 65535 (got 70000)",
      "error [2].port: expected an integer, got a number (1.5)",
    ]);
  });
});

describe("validateAgainstSchema: scalars", () => {
  it("checks types, bounds, lengths and patterns in plain words", () => {
    const S = Type.Object({
      n: Type.Number({ minimum: 1 }),
      s: Type.String({ minLength: 1 }),
      t: Type.String({ minLength: 3, pattern: "^a" }),
      b: Type.Boolean(),
      z: Type.Null(),
    });
    expect(check({ n: 0, s: "", t: "b", b: "yes", z: 0 }, S)).toEqual([
      "error n: must be at least 1 (got 0)",
      "error s: must not be empty",
      "error t: must be at least 3 characters long (got 1)",
      'error t: must match the pattern /^a/ (got "b")',
      'error b: expected a boolean, got a string ("yes")',
      "error z: expected null, got a number (0)",
    ]);
  });

  it("reports a bad enum literal with the choices and a did-you-mean", () => {
    expect(check({ dmPolicy: "opne" }, Type.Object({ dmPolicy: DmPolicy }))).toEqual([
      'error dmPolicy: must be one of "pairing", "allowlist", "open", "disabled" (got "opne") — did you mean "open"?',
    ]);
    expect(check("x", Type.Enum(["a", "b"]))).toEqual([
      'error : must be one of "a", "b" (got "x")',
    ]);
    expect(check(2, Type.Literal(1))).toEqual(["error : must be 1 (got a number (2))"]);
  });
});

describe("validateAgainstSchema: unions", () => {
  const Model = Type.Union([
    Type.String(),
    Type.Object({ primary: Type.String(), fallbacks: Type.Optional(Type.Array(Type.String())) }),
  ]);

  it("accepts a value any branch accepts", () => {
    expect(check("a/b", Model)).toEqual([]);
    expect(check({ primary: "a/b" }, Model)).toEqual([]);
  });

  it("reports the errors of the only branch that accepts the value's type", () => {
    expect(check({ primary: "a", fallbacks: [1] }, Model)).toEqual([
      "error fallbacks[0]: expected a string, got a number (1)",
    ]);
  });

  it("gives one 'expected X or Y' message when no branch accepts the type", () => {
    expect(check(5, Model)).toEqual(["error : expected a string or an object, got a number (5)"]);
  });

  it("mixes literals and types in one message with a did-you-mean", () => {
    const Auto = Type.Union([Type.Literal("auto"), Type.Number()]);
    expect(check("atuo", Auto)).toEqual([
      'error : expected "auto" or a number, got a string ("atuo") — did you mean "auto"?',
    ]);
  });

  it("picks the closest branch when several accept the type", () => {
    const Peer = Type.Union([
      Type.Object(
        { kind: Type.Literal("direct"), id: Type.String() },
        { additionalProperties: false },
      ),
      Type.Object(
        { kind: Type.Literal("group"), id: Type.String(), topic: Type.Number() },
        { additionalProperties: false },
      ),
    ]);
    expect(check({ kind: "group", id: "1", topic: "t" }, Peer)).toEqual([
      'error topic: expected a number, got a string ("t")',
    ]);
  });
});

describe("validateAgainstSchema: references", () => {
  it("follows $ref into $defs (TypeBox Cyclic)", () => {
    const Tree = Type.Cyclic(
      {
        Node: Type.Object({ v: Type.Number(), kids: Type.Optional(Type.Array(Type.Ref("Node"))) }),
      },
      "Node",
    );
    expect(check({ v: 1, kids: [{ v: "x" }] }, Tree)).toEqual([
      'error kids[0].v: expected a number, got a string ("x")',
    ]);
  });
});
