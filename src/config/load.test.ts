import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Type from "typebox";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { type LoadConfigOptions, loadConfig as loadWithDefaults } from "./load.js";

/** Tests use a permissive schema so they check the loader, not the real config schema. */
const ANY_OBJECT = Type.Record(Type.String(), Type.Unknown());
const loadConfig = (options: LoadConfigOptions) =>
  loadWithDefaults({ schema: ANY_OBJECT, ...options });

const tempDir = (): string => makeTempDir("pincer-load-");

/** A state dir with the given files; returns the env that points loadConfig at it. */
function stateWith(files: Record<string, string>): { dir: string; env: Record<string, string> } {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return { dir, env: { HOME: dir, OPENCLAW_STATE_DIR: dir } };
}

const errorsOf = (loaded: ReturnType<typeof loadConfig>) =>
  loaded.issues.filter((issue) => issue.severity === "error");

describe("config discovery", () => {
  it("uses OPENCLAW_CONFIG_PATH when set", () => {
    const { dir } = stateWith({ "custom/my.json5": "{ gateway: { port: 1 } }" });
    const loaded = loadConfig({
      env: { HOME: dir, OPENCLAW_CONFIG_PATH: join(dir, "custom/my.json5") },
    });
    expect(loaded.path).toBe(join(dir, "custom/my.json5"));
    expect(loaded.config).toEqual({ gateway: { port: 1 } });
    expect(loaded.files).toEqual([join(dir, "custom/my.json5")]);
  });

  it("uses <OPENCLAW_STATE_DIR>/openclaw.json", () => {
    const { dir, env } = stateWith({ "openclaw.json": '{ "a": 1 }' });
    const loaded = loadConfig({ env });
    expect(loaded.path).toBe(join(dir, "openclaw.json"));
    expect(loaded.exists).toBe(true);
    expect(loaded.config).toEqual({ a: 1 });
  });

  it("uses ~/.openclaw-<profile> for a profile", () => {
    const { dir } = stateWith({ ".openclaw-work/openclaw.json": "{ b: 2 }" });
    const loaded = loadConfig({ env: { HOME: dir }, profile: "work" });
    expect(loaded.path).toBe(join(dir, ".openclaw-work", "openclaw.json"));
    expect(loaded.config).toEqual({ b: 2 });
    expect(loaded.paths.profile).toBe("work");
  });

  it("treats a missing file as all defaults", () => {
    const { env } = stateWith({});
    const loaded = loadConfig({ env });
    expect(loaded).toMatchObject({ exists: false, config: {}, issues: [], valid: true, files: [] });
  });
});

describe("JSON5 parsing", () => {
  it("accepts comments, unquoted keys, single quotes and trailing commas", () => {
    const { env } = stateWith({
      "openclaw.json":
        "// hi\n{\n  /* c */ gateway: { port: 18789, mode: 'local', },\n  list: [1, 2,],\n}\n",
    });
    const loaded = loadConfig({ env });
    expect(loaded.valid).toBe(true);
    expect(loaded.config).toEqual({ gateway: { port: 18789, mode: "local" }, list: [1, 2] });
  });

  it("reports a syntax error with file, line and column instead of throwing", () => {
    const { dir, env } = stateWith({ "openclaw.json": "{\n  a: 1,\n  b: oops\n}\n" });
    const loaded = loadConfig({ env });
    expect(loaded.valid).toBe(false);
    expect(loaded.config).toEqual({});
    expect(loaded.issues).toEqual([
      expect.objectContaining({
        severity: "error",
        file: join(dir, "openclaw.json"),
        line: 3,
        column: 6,
      }),
    ]);
    expect(loaded.issues[0].message).toMatch(/invalid JSON5/);
  });
});

describe(`\${VAR} substitution`, () => {
  it(`substitutes set variables and keeps $\${VAR} as a literal`, () => {
    const { env } = stateWith({
      "openclaw.json": `{ token: "\${TG_TOKEN}", url: "http://\${HOST}:1/x", lit: "$\${TG_TOKEN}", low: "\${lower}" }`,
    });
    const loaded = loadConfig({ env: { ...env, TG_TOKEN: "123:abc", HOST: "h" } });
    expect(loaded.issues).toEqual([]);
    expect(loaded.config).toEqual({
      token: "123:abc",
      url: "http://h:1/x",
      lit: `\${TG_TOKEN}`,
      low: `\${lower}`,
    });
  });

  it("reports an unset variable naming the variable, the path and the line", () => {
    const { env } = stateWith({
      "openclaw.json": `{\n  channels: {\n    telegram: { botToken: "\${MISSING_TOKEN}" },\n  },\n}`,
    });
    const loaded = loadConfig({ env });
    expect(loaded.valid).toBe(false);
    expect(errorsOf(loaded)).toEqual([
      expect.objectContaining({ path: "channels.telegram.botToken", line: 3, column: 17 }),
    ]);
    expect(errorsOf(loaded)[0].message).toContain("MISSING_TOKEN");
    expect(errorsOf(loaded)[0].message).toContain("channels.telegram.botToken");
  });

  it("also substitutes inside included files", () => {
    const { env } = stateWith({
      "openclaw.json": '{ $include: "./secrets.json5" }',
      "secrets.json5": `{ key: "\${API_KEY}" }`,
    });
    expect(loadConfig({ env: { ...env, API_KEY: "k" } }).config).toEqual({ key: "k" });
  });
});

describe("$include", () => {
  it("includes a single file relative to the including file", () => {
    const { dir, env } = stateWith({
      "openclaw.json": '{ agents: { $include: "./parts/agents.json5" } }',
      "parts/agents.json5": '{ list: [{ id: "a" }], defaults: { $include: "defaults.json5" } }',
      "parts/defaults.json5": '{ model: "m" }',
    });
    const loaded = loadConfig({ env });
    expect(loaded.issues).toEqual([]);
    expect(loaded.config).toEqual({ agents: { list: [{ id: "a" }], defaults: { model: "m" } } });
    expect(loaded.files).toEqual([
      join(dir, "openclaw.json"),
      join(dir, "parts/agents.json5"),
      join(dir, "parts/defaults.json5"),
    ]);
  });

  it("deep-merges an array of includes in order, siblings winning", () => {
    const { env } = stateWith({
      "openclaw.json": '{ $include: ["a.json5", "b.json5"], gateway: { port: 3 } }',
      "a.json5": '{ gateway: { port: 1, mode: "local", tags: [1, 2] }, x: "a" }',
      "b.json5": '{ gateway: { port: 2, tags: [9] }, y: "b" }',
    });
    const loaded = loadConfig({ env });
    expect(loaded.config).toEqual({
      gateway: { port: 3, mode: "local", tags: [9] },
      x: "a",
      y: "b",
    });
  });

  it("lets a string include replace the containing value (e.g. an array)", () => {
    const { env } = stateWith({
      "openclaw.json": '{ bindings: { $include: "bindings.json5" } }',
      "bindings.json5": '[{ agentId: "main", match: { channel: "telegram" } }]',
    });
    expect(loadConfig({ env }).config).toEqual({
      bindings: [{ agentId: "main", match: { channel: "telegram" } }],
    });
  });

  it("reports a cycle naming the chain of files", () => {
    const { env } = stateWith({
      "openclaw.json": '{ $include: "a.json5" }',
      "a.json5": '{ $include: "b.json5" }',
      "b.json5": '{\n  $include: "a.json5"\n}',
    });
    const loaded = loadConfig({ env });
    expect(errorsOf(loaded)).toHaveLength(1);
    expect(errorsOf(loaded)[0]).toMatchObject({ path: "$include", line: 2, column: 3 });
    expect(errorsOf(loaded)[0].message).toBe(
      "circular $include: openclaw.json → a.json5 → b.json5 → a.json5",
    );
  });

  it("rejects nesting deeper than 10 levels", () => {
    const files: Record<string, string> = { "openclaw.json": '{ $include: "l1.json5" }' };
    for (let level = 1; level <= 11; level++)
      files[`l${level}.json5`] = `{ $include: "l${level + 1}.json5", v${level}: ${level} }`;
    files["l12.json5"] = "{ deepest: true }";
    const loaded = loadConfig({ env: stateWith(files).env });
    const errors = errorsOf(loaded);
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toMatch(/more than 10 levels/);
    expect(errors[0].message).toContain("openclaw.json → l1.json5 →");
    expect(errors[0].message).toContain("l11.json5");
    expect(loaded.config).toMatchObject({ v1: 1, v10: 10 });
  });

  it("allows exactly 10 levels", () => {
    const files: Record<string, string> = { "openclaw.json": '{ $include: "l1.json5" }' };
    for (let level = 1; level < 10; level++)
      files[`l${level}.json5`] = `{ $include: "l${level + 1}.json5" }`;
    files["l10.json5"] = "{ deepest: true }";
    expect(loadConfig({ env: stateWith(files).env })).toMatchObject({
      valid: true,
      config: { deepest: true },
    });
  });

  it("reports a missing included file at the $include key", () => {
    const { dir, env } = stateWith({
      "openclaw.json": '{\n  gateway: {\n    $include: "nope.json5",\n  },\n}',
    });
    const loaded = loadConfig({ env });
    expect(errorsOf(loaded)).toEqual([
      expect.objectContaining({
        path: "gateway.$include",
        file: join(dir, "openclaw.json"),
        line: 3,
        column: 5,
      }),
    ]);
    expect(errorsOf(loaded)[0].message).toContain('"nope.json5": not found');
  });

  it("reports a syntax error inside an included file with that file's line", () => {
    const { dir, env } = stateWith({
      "openclaw.json": '{ $include: "bad.json5" }',
      "bad.json5": "{\n\n  a: ,\n}",
    });
    const loaded = loadConfig({ env });
    expect(errorsOf(loaded)).toEqual([
      expect.objectContaining({ file: join(dir, "bad.json5"), line: 3 }),
    ]);
  });

  it("rejects an $include that is not a path or list of paths", () => {
    const { env } = stateWith({ "openclaw.json": "{ $include: 42 }" });
    expect(errorsOf(loadConfig({ env }))[0]).toMatchObject({
      path: "$include",
      message: expect.stringMatching(/file path/),
    });
  });
});

describe("positions of validation issues", () => {
  const schema = Type.Object(
    {
      gateway: Type.Optional(Type.Object({ port: Type.Number() })),
      agents: Type.Optional(
        Type.Object({
          list: Type.Array(Type.Object({ id: Type.String(), model: Type.Optional(Type.String()) })),
        }),
      ),
    },
    { additionalProperties: false },
  );

  it("points at the key in the main file and in included files", () => {
    const { dir, env } = stateWith({
      "openclaw.json":
        '{\n  gateway: {\n    port: "18789",\n  },\n  agents: { $include: "agents.json5" },\n}',
      "agents.json5": '{\n  list: [\n    { id: "a" },\n    { id: "b",\n      model: 5 },\n  ],\n}',
    });
    const loaded = loadConfig({ env, schema });
    expect(loaded.issues).toEqual([
      expect.objectContaining({
        path: "gateway.port",
        file: join(dir, "openclaw.json"),
        line: 3,
        column: 5,
      }),
      expect.objectContaining({
        path: "agents.list[1].model",
        file: join(dir, "agents.json5"),
        line: 5,
        column: 7,
      }),
    ]);
    expect(loaded.issues[0].message).toBe('expected a number, got a string ("18789")');
  });

  it("points a missing required key at its parent object", () => {
    const { dir, env } = stateWith({
      "openclaw.json": '{\n  agents: {\n    list: [\n      { model: "x" },\n    ],\n  },\n}',
    });
    const loaded = loadConfig({ env, schema });
    expect(loaded.issues).toEqual([
      expect.objectContaining({
        path: "agents.list[0].id",
        message: 'missing required key "id"',
        file: join(dir, "openclaw.json"),
        line: 4,
        column: 7,
      }),
    ]);
  });
});
