import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { configEnvVars, refreshEnv, withConfigEnv } from "./config-env.js";
import { loadConfig } from "./load.js";

/** Loads `config` from a fresh state dir with `extra` in the process env. */
function load(config: unknown, extra: Record<string, string> = {}) {
  const dir = makeTempDir("pincer-config-env-");
  writeFileSync(join(dir, "openclaw.json"), JSON.stringify(config));
  const env = { HOME: dir, OPENCLAW_STATE_DIR: dir, ...extra };
  return { loaded: loadConfig({ env }), env };
}

const provider = (apiKey: string) => ({
  models: {
    providers: {
      fake: { baseUrl: "http://127.0.0.1:1/v1", apiKey, api: "openai-completions", models: [] },
    },
  },
});

describe("config env vars at load", () => {
  it(`env.vars fill a \${VAR} used elsewhere in the same file and reach the effective env`, () => {
    const { loaded, env } = load({
      env: { vars: { FAKE_KEY: "from-config" } },
      ...provider(`\${FAKE_KEY}`),
    });
    expect(loaded.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(loaded.config.models?.providers?.fake?.apiKey).toBe("from-config");
    expect(loaded.env.FAKE_KEY).toBe("from-config");
    // The caller's env (process.env in production) is never mutated.
    expect(env).not.toHaveProperty("FAKE_KEY");
  });

  it("the shorthand env.<NAME> works like env.vars", () => {
    const { loaded } = load({ env: { FAKE_KEY: "short" }, ...provider(`\${FAKE_KEY}`) });
    expect(loaded.config.models?.providers?.fake?.apiKey).toBe("short");
    expect(loaded.env.FAKE_KEY).toBe("short");
  });

  it("the process environment wins over the config, in substitution and in the effective env", () => {
    const { loaded } = load(
      { env: { vars: { FAKE_KEY: "from-config" }, OTHER: "cfg" }, ...provider(`\${FAKE_KEY}`) },
      { FAKE_KEY: "from-process", OTHER: "proc" },
    );
    expect(loaded.config.models?.providers?.fake?.apiKey).toBe("from-process");
    expect(loaded.env.FAKE_KEY).toBe("from-process");
    expect(loaded.env.OTHER).toBe("proc");
  });

  it("a blank process variable counts as missing", () => {
    const { loaded } = load({ env: { vars: { FAKE_KEY: "cfg" } } }, { FAKE_KEY: "  " });
    expect(loaded.env.FAKE_KEY).toBe("cfg");
  });

  it(`without env vars, a \${VAR} the process lacks is still an error naming it`, () => {
    const { loaded } = load(provider(`\${FAKE_KEY}`));
    expect(loaded.valid).toBe(false);
    expect(loaded.issues.map((i) => i.message).join("\n")).toContain('"FAKE_KEY" is not set');
  });
});

describe("withConfigEnv", () => {
  it(`resolves a var's own \${VAR} against the process env; one that cannot resolve is not applied`, () => {
    const env = withConfigEnv({
      base: { HOST: "h" },
      config: { env: { vars: { URL: `https://\${HOST}/v1`, BAD: `\${NOPE}`, ESC: `$\${HOST}` } } },
    });
    expect(env.URL).toBe("https://h/v1");
    expect(env).not.toHaveProperty("BAD");
    expect(env.ESC).toBe(`\${HOST}`);
  });

  it("shellEnv and non-string values are not variables; env.vars wins over the shorthand", () => {
    expect(
      configEnvVars({
        env: { shellEnv: { enabled: true }, N: 1, A: "short", vars: { A: "vars" } },
      }),
    ).toEqual({ A: "vars" });
    expect(configEnvVars({})).toEqual({});
  });

  it("refreshEnv replaces a live env's contents in place", () => {
    const live: Record<string, string | undefined> = { A: "1", GONE: "x" };
    const same = live;
    refreshEnv(live, { A: "2", NEW: "n" });
    expect(same).toEqual({ A: "2", NEW: "n" });
  });
});
