import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { findTooDeep, MAX_CONFIG_DEPTH, valueTooDeep } from "./depth-limit.js";
import { loadConfig } from "./load.js";

describe("findTooDeep", () => {
  it("finds the bracket that opens one level too many, skipping strings and comments", () => {
    const ok = `${"[".repeat(MAX_CONFIG_DEPTH)}${"]".repeat(MAX_CONFIG_DEPTH)}`;
    expect(findTooDeep(ok)).toBeUndefined();
    expect(findTooDeep(`[${ok}]`)).toBe(MAX_CONFIG_DEPTH);
    const noise = `{ a: "{{{{[[[[", b: '[[[[', /* {{{{ */ // [[[[\n c: 1 }`;
    expect(findTooDeep(noise, 1)).toBeUndefined();
    expect(findTooDeep(`{ "x\\"{": {} }`, 1)).toBe(10);
  });

  it("answers on 100k levels without recursion", () => {
    expect(findTooDeep("{a:".repeat(100_000))).toBe(MAX_CONFIG_DEPTH * 3);
  });
});

describe("valueTooDeep", () => {
  it("measures parsed values iteratively", () => {
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i++) value = { a: [value] };
    expect(valueTooDeep(value)).toBe(true);
    expect(valueTooDeep({ a: { b: [1] } }, 3)).toBe(false);
    expect(valueTooDeep({ a: { b: [1] } }, 2)).toBe(true);
  });
});

describe("loading a too-deep config file", () => {
  it("is an issue at the offending line and column, not a crash", () => {
    const dir = makeTempDir("pincer-deep-");
    const configPath = join(dir, "openclaw.json");
    writeFileSync(configPath, `{\n  meta: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n}\n`);
    const loaded = loadConfig({ env: { HOME: dir, OPENCLAW_STATE_DIR: dir }, configPath });
    expect(loaded.valid).toBe(false);
    expect(loaded.issues[0]).toMatchObject({
      severity: "error",
      file: configPath,
      line: 2,
      column: 9 + MAX_CONFIG_DEPTH - 1,
    });
    expect(loaded.issues[0].message).toContain(`${MAX_CONFIG_DEPTH} levels`);
  });
});
