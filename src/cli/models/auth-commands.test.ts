// `pincer models auth paste-token | order | list | remove` and the legacy imports, through argv
// (the real parser) in a temp state dir: what is stored, what is printed, and the errors.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";

function sandbox() {
  const sb = createCliSandbox();
  sb.writeConfig(
    JSON.stringify({
      agents: { list: [{ id: "main", default: true }, { id: "work" }] },
      auth: { order: { openai: ["openai:b"] } },
    }),
  );
  const agentDir = (id: string) => join(sb.stateDir, "agents", id, "agent");
  const store = (id = "main") =>
    JSON.parse(readFileSync(join(agentDir(id), "auth-profiles.json"), "utf8"));
  return { ...sb, agentDir, store };
}

describe("pincer models auth paste-token", () => {
  it("stores the token with its expiry under OpenClaw's --profile-id; never prints it", async () => {
    const sb = sandbox();
    const before = Date.now();
    const out = await sb.run(
      [
        "models",
        "auth",
        "paste-token",
        "--provider",
        "anthropic",
        "--profile-id",
        "sub",
        "--expires-in",
        "365d",
      ],
      "sk-ant-oat01-abc\n",
    );
    expect(out).toMatchObject({ code: 0, stdout: "anthropic:sub\n" });
    expect(out.stdout + out.stderr).not.toContain("sk-ant-oat01-abc");
    const profile = sb.store().profiles["anthropic:sub"];
    expect(profile).toMatchObject({
      type: "token",
      provider: "anthropic",
      token: "sk-ant-oat01-abc",
    });
    expect(profile.expires).toBeGreaterThanOrEqual(before + 365 * 86_400_000);
  });

  it("names what is wrong: empty token, bad --expires-in, unknown provider", async () => {
    const sb = sandbox();
    const empty = await sb.run(
      ["models", "auth", "paste-token", "--provider", "anthropic"],
      "  \n",
    );
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("no token on stdin");
    const bad = await sb.run(
      ["models", "auth", "paste-token", "--provider", "anthropic", "--expires-in", "a year"],
      "tok",
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--expires-in "a year" is not a duration');
    const unknown = await sb.run(
      ["models", "auth", "paste-token", "--provider", "antropic"],
      "tok",
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown provider "antropic"; did you mean anthropic/);
    expect(existsSync(join(sb.agentDir("main"), "auth-profiles.json"))).toBe(false);
  });
});

describe("pincer models auth setup-token", () => {
  it("explains instead of hanging without a terminal, and is for anthropic only", async () => {
    const sb = sandbox();
    const piped = await sb.run(["models", "auth", "setup-token"]);
    expect(piped.code).toBe(1);
    expect(piped.stderr).toContain(
      "setup-token is interactive; run `claude setup-token` yourself and pipe its token into: pincer models auth paste-token --provider anthropic",
    );
    const other = await sb.run(["models", "auth", "setup-token", "--provider", "openai"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("setup-token is for anthropic");
  });
});

describe("pincer models auth order / list / remove", () => {
  it("order set|get|clear on the agent's store, over the config's auth.order", async () => {
    const sb = sandbox();
    for (const name of ["a", "b"]) {
      await sb.run(
        ["models", "auth", "add", "--provider", "openai", "--profile-id", name],
        `sk-${name}`,
      );
    }
    const fromConfig = await sb.run(["models", "auth", "order", "get", "--provider", "openai"]);
    expect(fromConfig.stdout).toBe("openai: openai:b  [config auth.order]\n");
    const set = await sb.run([
      "models",
      "auth",
      "order",
      "set",
      "--provider",
      "openai",
      "b",
      "openai:a",
    ]);
    expect(set.stdout).toBe("openai: openai:b, openai:a  [auth-profiles.json]\n");
    expect(sb.store().order).toEqual({ openai: ["openai:b", "openai:a"] });
    const unknown = await sb.run(["models", "auth", "order", "set", "--provider", "openai", "c"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown profile "openai:c"');
    expect(unknown.stderr).toContain("openai profiles: openai:a, openai:b");
    const cleared = await sb.run([
      "models",
      "auth",
      "order",
      "clear",
      "--provider",
      "openai",
      "--json",
    ]);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ order: ["openai:b"], source: "config" });
    expect(sb.store().order).toBeUndefined();
    const badAction = await sb.run(["models", "auth", "order", "shuffle", "--provider", "openai"]);
    expect(badAction.code).toBe(2);
  });

  it("list shows type, state and order place without secrets; remove drops every reference", async () => {
    const sb = sandbox();
    await sb.run(
      ["models", "auth", "add", "--provider", "openai", "--profile-id", "a"],
      "sk-secret-a",
    );
    await sb.run(
      ["models", "auth", "add", "--provider", "openai", "--profile-id", "b"],
      "sk-secret-b",
    );
    await sb.run(["models", "auth", "order", "set", "--provider", "openai", "a"]);
    const list = await sb.run(["models", "auth", "list"]);
    expect(list.stdout).toBe(
      "openai:a  api_key  ok  order #1\nopenai:b  api_key  ok  not in order (unused)\n",
    );
    expect(list.stdout + list.stderr).not.toContain("sk-secret");
    const removed = await sb.run(["models", "auth", "remove", "openai:a"]);
    expect(removed.code).toBe(0);
    // The emptied order is dropped rather than shutting openai:b out.
    expect(sb.store()).toMatchObject({ profiles: { "openai:b": { key: "sk-secret-b" } } });
    expect(sb.store().profiles["openai:a"]).toBeUndefined();
    expect(sb.store().order).toEqual({});
    const again = await sb.run(["models", "auth", "remove", "openai:a"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('unknown profile "openai:a"');
  });
});

describe("legacy credential files", () => {
  it("auth.json is migrated (kept as auth.json.migrated) and credentials/oauth.json imported once", async () => {
    const sb = sandbox();
    mkdirSync(sb.agentDir("main"), { recursive: true });
    writeFileSync(
      join(sb.agentDir("main"), "auth.json"),
      JSON.stringify({
        anthropic: { type: "oauth", access: "acc-legacy", refresh: "ref-legacy", expires: 1 },
        openai: { type: "api_key", key: "sk-legacy" },
        broken: { type: "nonsense" },
      }),
    );
    mkdirSync(join(sb.stateDir, "credentials"), { recursive: true });
    const oauthJson = join(sb.stateDir, "credentials", "oauth.json");
    writeFileSync(
      oauthJson,
      JSON.stringify({
        anthropic: { access: "acc-old", refresh: "ref-old", expires: 2 },
        "openai-codex": {
          access: "acc-codex",
          refresh: "ref-codex",
          expires: 3,
          accountId: "acct",
        },
      }),
    );
    const first = await sb.run(["models", "auth", "list", "--json"]);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(
      /migrated .*auth\.json into auth-profiles\.json: anthropic:default, openai:default; unusable entries left out: broken \(kept as .*auth\.json\.migrated\)/,
    );
    expect(first.stderr).toMatch(
      /imported .*oauth\.json into .*: openai-codex:default; already present, not overwritten: anthropic:default/,
    );
    expect(existsSync(join(sb.agentDir("main"), "auth.json"))).toBe(false);
    expect(existsSync(join(sb.agentDir("main"), "auth.json.migrated"))).toBe(true);
    expect(existsSync(oauthJson)).toBe(true);
    expect(sb.store().profiles).toEqual({
      "anthropic:default": {
        type: "oauth",
        provider: "anthropic",
        access: "acc-legacy",
        refresh: "ref-legacy",
        expires: 1,
      },
      "openai:default": { type: "api_key", provider: "openai", key: "sk-legacy" },
      "openai-codex:default": {
        type: "oauth",
        provider: "openai-codex",
        access: "acc-codex",
        refresh: "ref-codex",
        expires: 3,
        accountId: "acct",
      },
    });
    // Once: removing the imported profile does not bring it back on the next command.
    await sb.run(["models", "auth", "remove", "openai-codex:default"]);
    const second = await sb.run(["models", "status"]);
    expect(second.stderr).not.toContain("imported");
    expect(sb.store().profiles["openai-codex:default"]).toBeUndefined();
    // Another agent gets neither file.
    await sb.run(["models", "auth", "list", "--agent", "work"]);
    expect(existsSync(join(sb.agentDir("work"), "auth-profiles.json"))).toBe(false);
  });

  it("a broken legacy file is reported and left as it is", async () => {
    const sb = sandbox();
    mkdirSync(sb.agentDir("main"), { recursive: true });
    writeFileSync(join(sb.agentDir("main"), "auth.json"), "{ not json");
    const out = await sb.run(["models", "auth", "list"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(
      /warning: .*auth\.json is not valid JSON.*\(legacy file left as it is\)/,
    );
    expect(readFileSync(join(sb.agentDir("main"), "auth.json"), "utf8")).toBe("{ not json");
  });
});
