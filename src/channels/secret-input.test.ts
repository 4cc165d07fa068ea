import { describe, expect, it } from "vitest";
import { positiveNumber, readSecretInput } from "./secret-input.js";

// `${VAR}` in plain strings is the config syntax under test, not a template mistake.
const ref = (name: string) => `$${"{"}${name}}`;

describe("credential keys", () => {
  const env = { TOKEN: " t-1 ", EMPTY: "" };
  it("reads a string (with a $VAR reference), an env SecretRef, or nothing; says what is missing", () => {
    expect(readSecretInput({ key: "token", value: " abc ", env })).toEqual({
      value: "abc",
      source: "config",
    });
    expect(readSecretInput({ key: "token", value: ref("TOKEN"), env })).toEqual({
      value: "t-1",
      source: "config",
    });
    expect(readSecretInput({ key: "token", value: ref("NOPE"), env })).toEqual({
      problem: "token: NOPE is not set",
    });
    expect(readSecretInput({ key: "token", value: { source: "env", id: "TOKEN" }, env })).toEqual({
      value: "t-1",
      source: "env",
    });
    expect(
      readSecretInput({ key: "token", value: { source: "env", id: "EMPTY" }, env }).problem,
    ).toBe("token: environment variable EMPTY is not set");
    expect(
      readSecretInput({ key: "appToken", value: { source: "file", id: "x" }, env }).problem,
    ).toMatch(/^appToken: SecretRef source "file" is not supported/);
    expect(readSecretInput({ key: "token", value: "  ", env })).toEqual({});
    expect(readSecretInput({ key: "token", value: undefined, env })).toEqual({});
  });

  it("takes positive finite numbers only", () => {
    expect(positiveNumber(5, 1)).toBe(5);
    expect(positiveNumber(0, 1)).toBe(1);
    expect(positiveNumber(Number.NaN, 1)).toBe(1);
    expect(positiveNumber("5", 1)).toBe(1);
  });
});
