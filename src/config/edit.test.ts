import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import type { ConfigValidationResult } from "./config-issue.js";
import { type ConfigEdit, editConfigFile } from "./edit.js";

const ORIGINAL = `// Pincer config
{
  gateway: {
    port: 18789, // the default port
    mode: "local",
  },
  /* routing */
  bindings: [
    { agentId: "main", match: { channel: "telegram" } },
  ],
  channels: {
    telegram: { botToken: "\${TG_TOKEN}" },
  },
}
`;

const accept = (): ConfigValidationResult => ({ valid: true, issues: [] });

function setup(text: string | null = ORIGINAL, extra: Record<string, string> = {}) {
  const dir = makeTempDir("pincer-edit-");
  const configPath = join(dir, "openclaw.json");
  if (text !== null) writeFileSync(configPath, text);
  for (const [name, content] of Object.entries(extra)) writeFileSync(join(dir, name), content);
  const env = { HOME: dir, TG_TOKEN: "123:abc" };
  const edit = (
    edits: ConfigEdit[],
    validate: (value: unknown) => ConfigValidationResult = accept,
  ) => editConfigFile({ configPath, edits, validate, env });
  return { dir, configPath, edit, read: () => readFileSync(configPath, "utf8") };
}

describe("editConfigFile: splicing", () => {
  it("replaces an existing value and keeps comments and layout byte-for-byte", () => {
    const { edit, read } = setup();
    expect(edit([{ op: "set", path: "gateway.port", value: 19000 }]).ok).toBe(true);
    expect(read()).toBe(ORIGINAL.replace("port: 18789,", "port: 19000,"));
  });

  it("inserts a new nested key into the nearest existing object with matching indentation", () => {
    const { edit, read } = setup();
    expect(edit([{ op: "set", path: "gateway.auth.token", value: "s3cret" }]).ok).toBe(true);
    expect(read()).toBe(
      ORIGINAL.replace(
        '    mode: "local",\n',
        '    mode: "local",\n    auth: {\n      token: "s3cret"\n    },\n',
      ),
    );
  });

  it("quotes new keys only when needed", () => {
    const { edit, read } = setup();
    expect(
      edit([
        { op: "set", path: 'channels.telegram.groups["-100"]', value: { requireMention: true } },
      ]).ok,
    ).toBe(true);
    expect(read()).toContain(
      `telegram: { botToken: "\${TG_TOKEN}", groups: { "-100": { requireMention: true } } },`,
    );
  });

  it("keeps strict-JSON files in JSON style", () => {
    const { edit, read } = setup('{\n  "gateway": {\n    "port": 1\n  }\n}\n');
    expect(edit([{ op: "set", path: "gateway.mode", value: "local" }]).ok).toBe(true);
    expect(read()).toBe('{\n  "gateway": {\n    "port": 1,\n    "mode": "local"\n  }\n}\n');
    expect(JSON.parse(read())).toEqual({ gateway: { port: 1, mode: "local" } });
  });

  it("appends to an existing array", () => {
    const { edit, read } = setup();
    const value = { agentId: "work", match: { channel: "slack" } };
    expect(edit([{ op: "append", path: "bindings", value }]).ok).toBe(true);
    expect(read()).toBe(
      ORIGINAL.replace(
        '    { agentId: "main", match: { channel: "telegram" } },\n',
        '    { agentId: "main", match: { channel: "telegram" } },\n    {\n      agentId: "work",\n      match: {\n        channel: "slack"\n      }\n    },\n',
      ),
    );
  });

  it("creates the array when appending to a missing path", () => {
    const { edit, read } = setup();
    expect(edit([{ op: "append", path: "tools.allow", value: "exec" }]).ok).toBe(true);
    expect(read()).toContain('  tools: {\n    allow: [\n      "exec"\n    ]\n  },\n}\n');
  });

  it("deletes a member with its line, and the previous comma when it was last", () => {
    const { edit, read } = setup("{\n  a: 1, // one\n  b: 2,\n  c: 3\n}\n");
    expect(edit([{ op: "delete", path: "a" }]).ok).toBe(true);
    expect(read()).toBe("{\n  b: 2,\n  c: 3\n}\n");
    expect(edit([{ op: "delete", path: "c" }]).ok).toBe(true);
    expect(read()).toBe("{\n  b: 2\n}\n");
  });

  it("keeps CRLF line endings in CRLF files", () => {
    const { edit, read } = setup("{\r\n  a: 1,\r\n}\r\n");
    expect(edit([{ op: "set", path: "b.c", value: 2 }]).ok).toBe(true);
    expect(read()).toBe("{\r\n  a: 1,\r\n  b: {\r\n    c: 2\r\n  },\r\n}\r\n");
  });

  it("deletes inline members and array elements", () => {
    const { edit, read } = setup("{ a: { x: 1, y: 2 }, list: [1, 2, 3] }\n");
    expect(
      edit([
        { op: "delete", path: "a.y" },
        { op: "delete", path: "list[0]" },
      ]).ok,
    ).toBe(true);
    expect(read()).toBe("{ a: { x: 1 }, list: [2, 3] }\n");
  });

  it(`keeps \${VAR} text for untouched values while validating the substituted config`, () => {
    const { edit, read } = setup();
    let seen: unknown;
    const result = edit([{ op: "set", path: "gateway.mode", value: "remote" }], (value) => {
      seen = value;
      return accept();
    });
    expect(result.ok).toBe(true);
    expect(read()).toContain(`botToken: "\${TG_TOKEN}"`);
    expect(seen).toMatchObject({
      gateway: { mode: "remote" },
      channels: { telegram: { botToken: "123:abc" } },
    });
  });
});

describe("editConfigFile: safety", () => {
  it("refuses an edit whose result is invalid and leaves the file untouched", () => {
    const { dir, edit, read } = setup();
    const reject = (value: unknown): ConfigValidationResult => {
      const port = (value as { gateway: { port: unknown } }).gateway.port;
      return typeof port === "number"
        ? accept()
        : {
            valid: false,
            issues: [{ severity: "error", path: "gateway.port", message: "expected a number" }],
          };
    };
    const result = edit([{ op: "set", path: "gateway.port", value: "high" }], reject);
    expect(result).toEqual({
      ok: false,
      reason: "invalid",
      issues: [{ severity: "error", path: "gateway.port", message: "expected a number" }],
    });
    expect(read()).toBe(ORIGINAL);
    expect(existsSync(join(dir, "openclaw.json.bak"))).toBe(false);
  });

  it(`refuses an edit that introduces an unset \${VAR}`, () => {
    const { edit, read } = setup();
    const result = edit([{ op: "set", path: "gateway.auth.token", value: `\${NOT_SET}` }]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues[0].message).toContain("NOT_SET");
    expect(read()).toBe(ORIGINAL);
  });

  it("backs up the previous file and writes with mode 0600", () => {
    const { configPath, edit } = setup();
    const result = edit([{ op: "set", path: "gateway.port", value: 1 }]);
    expect(result).toEqual({
      ok: true,
      backupPath: `${configPath}.bak`,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(readFileSync(`${configPath}.bak`, "utf8")).toBe(ORIGINAL);
    if (process.platform !== "win32") {
      expect(statSync(configPath).mode & 0o777).toBe(0o600);
      expect(statSync(`${configPath}.bak`).mode & 0o777).toBe(0o600);
    }
  });

  it("creates a missing file as pretty JSON5 without a backup", () => {
    const { configPath, edit, read } = setup(null);
    const result = edit([
      { op: "set", path: "gateway.port", value: 18789 },
      { op: "append", path: "agents.list", value: { id: "main", default: true } },
    ]);
    expect(result).toEqual({ ok: true, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(read()).toBe(
      '{\n  gateway: {\n    port: 18789\n  },\n  agents: {\n    list: [\n      {\n        id: "main",\n        default: true\n      }\n    ]\n  }\n}\n',
    );
    expect(existsSync(`${configPath}.bak`)).toBe(false);
  });

  it("reports a malformed path or an impossible edit as an issue", () => {
    const { edit, read } = setup();
    expect(edit([{ op: "set", path: "gateway..port", value: 1 }])).toMatchObject({
      ok: false,
      issues: [{ path: "gateway..port" }],
    });
    expect(edit([{ op: "delete", path: "gateway.nothing" }])).toMatchObject({
      ok: false,
      issues: [{ path: "gateway.nothing" }],
    });
    expect(edit([{ op: "set", path: "gateway.port.x", value: 1 }])).toMatchObject({ ok: false });
    expect(edit([{ op: "append", path: "gateway", value: 1 }])).toMatchObject({ ok: false });
    expect(read()).toBe(ORIGINAL);
  });
});

describe("editConfigFile: $include", () => {
  const main = '{\n  agents: {\n    $include: "./agents.json5",\n  },\n}\n';
  const agents = '{ defaults: { model: "a/b", workspace: "~/w" }, list: [{ id: "main" }] }';

  it("overrides an included value by writing the key into the main file", () => {
    const { dir, edit, read } = setup(main, { "agents.json5": agents });
    let seen: unknown;
    const result = edit([{ op: "set", path: "agents.defaults.model", value: "c/d" }], (value) => {
      seen = value;
      return accept();
    });
    expect(result.ok).toBe(true);
    expect(read()).toBe(
      '{\n  agents: {\n    $include: "./agents.json5",\n    defaults: {\n      model: "c/d"\n    },\n  },\n}\n',
    );
    expect(readFileSync(join(dir, "agents.json5"), "utf8")).toBe(agents);
    expect(seen).toMatchObject({ agents: { defaults: { model: "c/d", workspace: "~/w" } } });
  });

  it("refuses to edit inside an array or delete a value that lives in an included file", () => {
    const { edit, read } = setup(main, { "agents.json5": agents });
    const inArray = edit([{ op: "set", path: "agents.list[0].model", value: "x" }]);
    expect(inArray).toMatchObject({ ok: false, issues: [{ path: "agents.list[0].model" }] });
    expect(!inArray.ok && inArray.issues[0].message).toContain("agents.json5");
    expect(edit([{ op: "delete", path: "agents.defaults.model" }])).toMatchObject({ ok: false });
    expect(edit([{ op: "append", path: "agents.list", value: { id: "x" } }])).toMatchObject({
      ok: false,
    });
    expect(read()).toBe(main);
  });
});
