import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { readAuthStore, setAuthProfile, updateAuthStore, writeAuthStore } from "./auth-store.js";
import { resolveCredentials } from "./credentials.js";

const NOW = Date.parse("2026-11-30T12:00:00Z");

function tempAgentDir(name = "agent"): string {
  return join(makeTempDir("pincer-auth-"), "agents", name, "agent");
}

function writeStore(agentDir: string, store: unknown): void {
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "auth-profiles.json"), JSON.stringify(store));
}

describe("auth-profiles.json", () => {
  it("round-trips, keeping unknown fields, with mode 0600 in a 0700 agentDir", () => {
    const agentDir = tempAgentDir();
    writeStore(agentDir, {
      version: 1,
      profiles: {
        "openai-codex:me@x.com": {
          type: "oauth",
          provider: "openai-codex",
          access: "a",
          refresh: "r",
          expires: NOW,
          accountId: "acct",
        },
        "weird:one": { type: "future-kind", provider: "weird", blob: [1, 2] },
      },
      order: { anthropic: ["anthropic:default"] },
      somethingNew: { keep: true },
    });
    setAuthProfile({
      agentDir,
      profileId: "anthropic:default",
      profile: { type: "api_key", provider: "anthropic", key: "sk-ant" },
    });
    const text = readFileSync(join(agentDir, "auth-profiles.json"), "utf8");
    const saved = JSON.parse(text);
    expect(saved.somethingNew).toEqual({ keep: true });
    expect(saved.profiles["weird:one"]).toEqual({
      type: "future-kind",
      provider: "weird",
      blob: [1, 2],
    });
    expect(saved.profiles["openai-codex:me@x.com"].accountId).toBe("acct");
    expect(saved.profiles["anthropic:default"]).toEqual({
      type: "api_key",
      provider: "anthropic",
      key: "sk-ant",
    });
    expect(statSync(join(agentDir, "auth-profiles.json")).mode & 0o777).toBe(0o600);
  });

  it("creates a missing agentDir with mode 0700", () => {
    const agentDir = tempAgentDir();
    writeAuthStore(agentDir, { version: 1, profiles: {} });
    expect(statSync(agentDir).mode & 0o777).toBe(0o700);
  });

  it("reports a broken file instead of throwing, and refuses to overwrite it", () => {
    const agentDir = tempAgentDir();
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "auth-profiles.json"), "{ not json");
    expect(readAuthStore(agentDir).error).toMatch(/not valid JSON/);
    expect(() => updateAuthStore(agentDir, () => {})).toThrow(/refusing to rewrite/);
    expect(readFileSync(join(agentDir, "auth-profiles.json"), "utf8")).toBe("{ not json");
  });
});

describe("resolveCredentials", () => {
  const base = { cfg: {}, env: {}, now: NOW };

  it("falls back to the provider's environment variable when no profile exists", () => {
    const agentDir = tempAgentDir();
    const result = resolveCredentials({
      ...base,
      agentDir,
      provider: "openai",
      env: { OPENAI_API_KEY: " sk-env " },
    });
    expect(result.candidates).toEqual([
      {
        id: "env:OPENAI_API_KEY",
        source: "env",
        kind: "api_key",
        secret: "sk-env",
        envVar: "OPENAI_API_KEY",
      },
    ]);
    const google = resolveCredentials({
      ...base,
      agentDir,
      provider: "google",
      env: { GEMINI_API_KEY: "g" },
    });
    expect(google.candidates[0].id).toBe("env:GEMINI_API_KEY");
    const openrouter = resolveCredentials({
      ...base,
      agentDir,
      provider: "openrouter",
      env: { OPENROUTER_API_KEY: "o" },
    });
    expect(openrouter.candidates[0].id).toBe("env:OPENROUTER_API_KEY");
  });

  it("orders profiles before env before config, dropping duplicate secrets", () => {
    const agentDir = tempAgentDir();
    writeStore(agentDir, {
      version: 1,
      profiles: {
        "anthropic:b-key": { type: "api_key", provider: "anthropic", key: "k-b" },
        "anthropic:a-token": { type: "token", provider: "anthropic", token: "t-a" },
        "anthropic:dup": { type: "api_key", provider: "anthropic", key: "same" },
      },
    });
    const cfg = { models: { providers: { anthropic: { apiKey: "from-config" } } } };
    const result = resolveCredentials({
      ...base,
      cfg,
      agentDir,
      provider: "anthropic",
      env: { ANTHROPIC_API_KEY: "same" },
    });
    expect(result.candidates.map((c) => c.id)).toEqual([
      "anthropic:a-token",
      "anthropic:b-key",
      "anthropic:dup",
      "config",
    ]);
    expect(result.candidates[0]).toMatchObject({ kind: "token", secret: "t-a" });
  });

  it("honours the store's order over auth.order, using only the listed profiles", () => {
    const agentDir = tempAgentDir();
    const profiles = {
      "openai:one": { type: "api_key", provider: "openai", key: "1" },
      "openai:two": { type: "api_key", provider: "openai", key: "2" },
      "openai:three": { type: "api_key", provider: "openai", key: "3" },
    };
    writeStore(agentDir, { version: 1, profiles });
    const cfg = { auth: { order: { openai: ["openai:three", "openai:one"] } } };
    const byConfig = resolveCredentials({ ...base, cfg, agentDir, provider: "openai" });
    expect(byConfig.candidates.map((c) => c.id)).toEqual(["openai:three", "openai:one"]);
    expect(byConfig.skipped).toEqual([
      { id: "openai:two", reason: "not-in-order", detail: expect.any(String) },
    ]);
    writeStore(agentDir, {
      version: 1,
      profiles,
      order: { openai: ["openai:two", "openai:gone"] },
    });
    const byStore = resolveCredentials({ ...base, cfg, agentDir, provider: "openai" });
    expect(byStore.candidates.map((c) => c.id)).toEqual(["openai:two"]);
    expect(byStore.skipped.map((s) => `${s.id}:${s.reason}`)).toContain("openai:gone:missing");
  });

  it("puts lastGood first when there is no explicit order", () => {
    const agentDir = tempAgentDir();
    writeStore(agentDir, {
      version: 1,
      profiles: {
        "openai:a": { type: "api_key", provider: "openai", key: "a" },
        "openai:b": { type: "api_key", provider: "openai", key: "b" },
      },
      lastGood: { openai: "openai:b" },
    });
    expect(
      resolveCredentials({ ...base, agentDir, provider: "openai" }).candidates.map((c) => c.id),
    ).toEqual(["openai:b", "openai:a"]);
  });

  it("skips profiles in cooldown or disabled (and reports them) until the window passes", () => {
    const agentDir = tempAgentDir();
    writeStore(agentDir, {
      version: 1,
      profiles: {
        "anthropic:hot": { type: "api_key", provider: "anthropic", key: "h" },
        "anthropic:broke": { type: "api_key", provider: "anthropic", key: "b" },
        "anthropic:ok": { type: "api_key", provider: "anthropic", key: "o" },
      },
      usageStats: {
        "anthropic:hot": { cooldownUntil: NOW + 60_000, lastFailureReason: "rate_limit" },
        "anthropic:broke": { disabledUntil: NOW + 5 * 3_600_000, disabledReason: "billing" },
      },
    });
    const now = resolveCredentials({ ...base, agentDir, provider: "anthropic" });
    expect(now.candidates.map((c) => c.id)).toEqual(["anthropic:ok"]);
    expect(now.skipped).toEqual([
      {
        id: "anthropic:hot",
        reason: "cooldown",
        until: NOW + 60_000,
        detail: expect.stringContaining("rate_limit"),
      },
      {
        id: "anthropic:broke",
        reason: "disabled",
        until: NOW + 5 * 3_600_000,
        detail: expect.stringContaining("billing"),
      },
    ]);
    const later = resolveCredentials({
      ...base,
      agentDir,
      provider: "anthropic",
      now: NOW + 61_000,
    });
    expect(later.candidates.map((c) => c.id)).toEqual(["anthropic:hot", "anthropic:ok"]);
  });

  it("skips expired tokens; flags expired OAuth for refresh; resolves keyRef from env", () => {
    const agentDir = tempAgentDir();
    writeStore(agentDir, {
      version: 1,
      profiles: {
        "anthropic:old": { type: "token", provider: "anthropic", token: "t", expires: NOW - 1 },
        "anthropic:oauth": {
          type: "oauth",
          provider: "anthropic",
          access: "acc",
          refresh: "ref",
          expires: NOW - 1,
        },
        "anthropic:ref": {
          type: "api_key",
          provider: "anthropic",
          keyRef: { source: "env", id: "MY_KEY" },
        },
      },
    });
    const result = resolveCredentials({
      ...base,
      agentDir,
      provider: "anthropic",
      env: { MY_KEY: "from-ref" },
    });
    expect(result.candidates).toEqual([
      expect.objectContaining({
        id: "anthropic:oauth",
        kind: "oauth",
        secret: "acc",
        needsRefresh: true,
      }),
      expect.objectContaining({ id: "anthropic:ref", kind: "api_key", secret: "from-ref" }),
    ]);
    expect(result.skipped).toEqual([
      expect.objectContaining({ id: "anthropic:old", reason: "expired" }),
    ]);
  });

  it("uses a custom provider's apiKey (string or env SecretRef); Ollama gets a placeholder", () => {
    const agentDir = tempAgentDir();
    const cfg = {
      models: {
        providers: {
          vllm: { baseUrl: "http://gpu/v1", apiKey: { source: "env", id: "VLLM_KEY" } },
          litellm: { baseUrl: "http://proxy", apiKey: "sk-lite" },
          ollama: { api: "ollama" },
        },
      },
    } as OpenClawConfig;
    expect(
      resolveCredentials({ ...base, cfg, agentDir, provider: "vllm", env: { VLLM_KEY: "v" } })
        .candidates,
    ).toEqual([
      { id: "config", source: "config", kind: "api_key", secret: "v", envVar: "VLLM_KEY" },
    ]);
    const missing = resolveCredentials({ ...base, cfg, agentDir, provider: "vllm" });
    expect(missing.candidates).toEqual([]);
    expect(missing.skipped[0].detail).toContain("VLLM_KEY");
    expect(
      resolveCredentials({ ...base, cfg, agentDir, provider: "litellm" }).candidates[0].secret,
    ).toBe("sk-lite");
    expect(
      resolveCredentials({ ...base, cfg, agentDir, provider: "ollama" }).candidates[0],
    ).toMatchObject({ kind: "none" });
  });

  it("a provider served on this machine without a key gets a placeholder; a remote one does not", () => {
    const agentDir = tempAgentDir();
    const local = (baseUrl: string) =>
      resolveCredentials({
        ...base,
        cfg: { models: { providers: { llm: { baseUrl, models: [] } } } } as OpenClawConfig,
        agentDir,
        provider: "llm",
      }).candidates;
    for (const url of [
      "http://127.0.0.1:8000/v1",
      "http://localhost:1234/v1",
      "http://[::1]:8080",
    ]) {
      expect(local(url), url).toEqual([
        { id: "config", source: "config", kind: "none", secret: "local" },
      ]);
    }
    for (const url of ["https://llm.example.com/v1", "http://10.0.0.5:8000/v1", "not a url"]) {
      expect(local(url), url).toEqual([]);
    }
  });

  it("isolation: agent B never sees agent A's profiles", () => {
    const root = makeTempDir("pincer-iso-");
    const dirA = join(root, "agents", "a", "agent");
    const dirB = join(root, "agents", "b", "agent");
    setAuthProfile({
      agentDir: dirA,
      profileId: "openai:default",
      profile: { type: "api_key", provider: "openai", key: "sk-A" },
    });
    mkdirSync(dirB, { recursive: true });
    const forB = resolveCredentials({ ...base, agentDir: dirB, provider: "openai" });
    expect(forB.candidates).toEqual([]);
    expect(JSON.stringify(forB)).not.toContain("sk-A");
    expect(
      resolveCredentials({ ...base, agentDir: dirA, provider: "openai" }).candidates[0].secret,
    ).toBe("sk-A");
  });
});
