import { describe, expect, it } from "vitest";
import { OpenClawConfigSchema } from "../protocol/config/index.js";
import type { PathSegment } from "./config-path.js";
import {
  isSecretPath,
  OPENCLAW_REDACTED,
  REDACTED,
  redactConfig,
  redactIssues,
  restoreRedacted,
} from "./redaction.js";

type Schema = Record<string, unknown>;

function isSecretRefSchema(schema: Schema): boolean {
  const props = schema.properties as Schema | undefined;
  return schema.type === "object" && !!props?.source && !!props.id;
}

/** Every path of the config schema that accepts a SecretRef, i.e. holds a secret by structure. */
function secretSchemaPaths(schema: Schema, at: PathSegment[], out: PathSegment[][], depth = 0) {
  if (depth > 40) return;
  const variants = (schema.anyOf as Schema[] | undefined) ?? [];
  if (variants.some(isSecretRefSchema)) out.push(at);
  for (const variant of variants) secretSchemaPaths(variant, at, out, depth + 1);
  for (const [key, child] of Object.entries((schema.properties as Schema) ?? {}))
    secretSchemaPaths(child as Schema, [...at, key], out, depth + 1);
  for (const child of Object.values((schema.patternProperties as Schema) ?? {}))
    secretSchemaPaths(child as Schema, [...at, "someKey"], out, depth + 1);
  if (typeof schema.additionalProperties === "object")
    secretSchemaPaths(schema.additionalProperties as Schema, [...at, "someKey"], out, depth + 1);
  if (typeof schema.items === "object")
    secretSchemaPaths(schema.items as Schema, [...at, 0], out, depth + 1);
}

describe("secret paths", () => {
  it("cover every place the config schema accepts a secret (SecretRef)", () => {
    const paths: PathSegment[][] = [];
    secretSchemaPaths(OpenClawConfigSchema as unknown as Schema, [], paths);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((path) => !isSecretPath(path)).map((path) => path.join("."))).toEqual([]);
  });

  it("mark env blocks, header values and secret-named keys, not ordinary settings", () => {
    for (const path of [
      ["env", "OPENAI_API_KEY"],
      ["env", "vars", "ANY"],
      ["skills", "entries", "x", "env", "FOO"],
      ["models", "providers", "p", "headers", "Authorization"],
      ["models", "providers", "p", "models", 0, "headers", "X-Key"],
      ["channels", "telegram", "accounts", "a", "botToken"],
      ["channels", "slack", "signingSecret"],
      ["gateway", "auth", "password"],
      ["tools", "web", "search", "apiKey"],
    ])
      expect(isSecretPath(path), path.join(".")).toBe(true);
    for (const path of [
      ["gateway", "auth", "mode"],
      ["models", "providers", "p", "baseUrl"],
      ["env", "shellEnv", "timeoutMs"],
      ["agents", "defaults", "model"],
      ["channels", "telegram", "tokenFile"],
    ])
      expect(isSecretPath(path), path.join(".")).toBe(false);
  });
});

describe("redactConfig", () => {
  it("redacts by structure and key name, keeps shapes, numbers and booleans", () => {
    const redacted = redactConfig({
      env: { OPENAI_API_KEY: "sk-1", vars: { A: "x" }, shellEnv: { enabled: true, timeoutMs: 5 } },
      models: {
        providers: {
          p: {
            apiKey: { source: "env", id: "KEY" },
            headers: { Authorization: "Bearer t" },
            models: [{ id: "m", maxTokens: 10 }],
          },
        },
      },
      gateway: { auth: { mode: "token", token: "t" } },
      proxy: "http://user:hunter2@proxy.local:3128",
      agents: { defaults: { contextTokens: 9 } },
    });
    expect(redacted).toEqual({
      proxy: REDACTED,
      agents: { defaults: { contextTokens: 9 } },
      env: {
        OPENAI_API_KEY: REDACTED,
        vars: { A: REDACTED },
        shellEnv: { enabled: true, timeoutMs: 5 },
      },
      models: {
        providers: {
          p: {
            apiKey: REDACTED,
            headers: { Authorization: REDACTED },
            models: [{ id: "m", maxTokens: 10 }],
          },
        },
      },
      gateway: { auth: { mode: "token", token: REDACTED } },
    });
  });

  it("redacts quoted values in issues about a secret path", () => {
    const [issue] = redactIssues([
      {
        severity: "error",
        path: "channels.telegram.botToken",
        message: 'got a string ("123:abc")',
      },
    ]);
    expect(issue.message).toBe(`got a string ("${REDACTED}")`);
  });
});

describe("restoreRedacted", () => {
  it("puts stored values back for either marker and reports markers with nothing stored", () => {
    const stored = { env: { A: "secret-a" }, list: [{ token: "t0" }] };
    const result = restoreRedacted({
      value: { env: { A: REDACTED, B: OPENCLAW_REDACTED }, list: [{ token: OPENCLAW_REDACTED }] },
      stored,
    });
    expect(result.value).toEqual({
      env: { A: "secret-a", B: OPENCLAW_REDACTED },
      list: [{ token: "t0" }],
    });
    expect(result.missing).toEqual(["env.B"]);
  });
});
