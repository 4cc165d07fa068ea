// What the config methods give the Control UI's Config page, through the real gateway: config.get's
// `raw` (the file's text, comments kept, secrets redacted in place; config.apply of it keeps the
// secret); a JSON5 syntax error names its line and column (config.set and config.patch alike), a
// schema error its key path (and line in a whole file), neither touches the file; a stale baseHash
// is refused; a change that needs a restart says which key.
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox;
beforeAll(async () => {
  box = await createGatewaySandbox();
});
afterAll(async () => box?.close());

const issuesOf = (res: Loose) => res.error.details.issues as Loose[];

describe("config methods for the Config page", () => {
  it("config.get's raw keeps comments and redacts secrets; applying it keeps them", async () => {
    const cfg = JSON.parse(readFileSync(box.configPath, "utf8"));
    const text = `// my gateway\n${JSON.stringify(cfg, null, 2)}\n`;
    writeFileSync(box.configPath, text);
    const client = await box.connect();
    const got = payloadOf(await client.request("config.get", {}));
    expect(got.raw.startsWith("// my gateway\n")).toBe(true);
    expect(got.raw).not.toContain(TEST_TOKEN);
    expect(got.raw).toContain("__REDACTED__");
    const applied = await client.request("config.apply", { raw: got.raw, baseHash: got.hash });
    expect(applied.ok).toBe(true);
    const after = readFileSync(box.configPath, "utf8");
    expect(after).toContain(TEST_TOKEN);
    expect(after.startsWith("// my gateway\n")).toBe(true);
    client.close();
  });

  it("places syntax and schema errors and writes nothing", async () => {
    const client = await box.connect();
    const before = readFileSync(box.configPath, "utf8");
    const { hash } = payloadOf(await client.request("config.get", {}));
    const syntax = await client.request("config.set", {
      raw: '{\n  "gateway": {\n    port: ,\n  }\n}',
      baseHash: hash,
    });
    expect((syntax.error as Loose).details.code).toBe("CONFIG_INVALID");
    expect(issuesOf(syntax)[0]).toMatchObject({ path: "", line: 3, column: 11 });
    const schema = await client.request("config.set", {
      raw: '{\n  "gateway": {\n    "port": "abc"\n  }\n}',
      baseHash: hash,
    });
    expect(issuesOf(schema)[0]).toMatchObject({ path: "gateway.port", line: 3 });
    const patchSyntax = await client.request("config.patch", {
      raw: "{\n gateway: {\n  port: ,\n }\n}",
      baseHash: hash,
    });
    expect(issuesOf(patchSyntax)[0]).toMatchObject({ path: "", line: 3, column: 9 });
    const patchSchema = await client.request("config.patch", {
      raw: '{ gateway: { port: "abc" } }',
      baseHash: hash,
    });
    expect(issuesOf(patchSchema)[0]).toMatchObject({ path: "gateway.port" });
    expect(readFileSync(box.configPath, "utf8")).toBe(before);
    client.close();
  });

  it("refuses a stale baseHash and says when a change needs a restart", async () => {
    const client = await box.connect();
    const { hash } = payloadOf(await client.request("config.get", {}));
    const first = await client.request("config.patch", {
      raw: "{ gateway: { port: 18999 } }",
      baseHash: hash,
    });
    expect(payloadOf(first).restart).toEqual({ needed: true, keys: ["gateway.port"] });
    const stale = await client.request("config.patch", {
      raw: "{ gateway: { port: 18998 } }",
      baseHash: hash,
    });
    expect((stale.error as Loose).details.code).toBe("CONFIG_BASE_HASH_MISMATCH");
    expect(readFileSync(box.configPath, "utf8")).toContain("18999");
    client.close();
  });
});
