import { describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { listKnownProviders, listModels, resolveModel } from "./registry.js";

const ref = (provider: string, model: string) => ({ provider, model });

describe("resolveModel", () => {
  it("finds built-in models in pi-ai's registry, slashes in ids included", () => {
    const result = resolveModel({ cfg: {}, ref: ref("anthropic", "claude-sonnet-4-5") });
    expect(result).toMatchObject({
      ok: true,
      source: "builtin",
      model: { id: "claude-sonnet-4-5", api: "anthropic-messages", provider: "anthropic" },
    });
    expect(resolveModel({ cfg: {}, ref: ref("openrouter", "moonshotai/kimi-k2") })).toMatchObject({
      ok: true,
      model: { id: "moonshotai/kimi-k2", api: "openai-completions" },
    });
  });

  it("an unknown built-in model is an error naming close matches", () => {
    const result = resolveModel({ cfg: {}, ref: ref("anthropic", "claude-sonet-4-5") });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.suggestions[0]).toBe("anthropic/claude-sonnet-4-5");
    expect(result.error).toMatch(
      /unknown model anthropic\/claude-sonet-4-5.*did you mean anthropic\/claude-sonnet-4-5/,
    );
  });

  it("an unknown provider is an error with a did-you-mean", () => {
    const result = resolveModel({ cfg: {}, ref: ref("antropic", "claude-sonnet-4-5") });
    expect(result).toMatchObject({ ok: false, suggestions: ["anthropic/claude-sonnet-4-5"] });
  });

  const local: OpenClawConfig = {
    models: {
      providers: {
        "fake-local": {
          baseUrl: "http://127.0.0.1:9999/v1/",
          apiKey: "sk-local",
          api: "openai-completions",
          headers: { "X-Team": "pincer", "X-Secret": { source: "env", id: "TEAM_SECRET" } },
          models: [
            {
              id: "qwen3-coder",
              name: "Qwen3 Coder",
              contextWindow: 32768,
              maxTokens: 4096,
              input: ["text", "image", "audio"],
              cost: { input: 0.1 },
              compat: { supportsStore: false, maxTokensField: "max_tokens" },
            },
          ],
        },
        ollama: { api: "ollama" },
      },
    },
  };

  it("builds a custom OpenAI-compatible model from models.providers", () => {
    const result = resolveModel({
      cfg: local,
      ref: ref("fake-local", "qwen3-coder"),
      env: { TEAM_SECRET: "s3" },
    });
    expect(result).toEqual({
      ok: true,
      source: "custom",
      model: {
        id: "qwen3-coder",
        name: "Qwen3 Coder",
        api: "openai-completions",
        provider: "fake-local",
        baseUrl: "http://127.0.0.1:9999/v1",
        reasoning: false,
        input: ["text", "image"],
        cost: { input: 0.1, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 32768,
        maxTokens: 4096,
        headers: { "X-Team": "pincer", "X-Secret": "s3" },
        compat: { supportsStore: false, maxTokensField: "max_tokens" },
      },
    });
  });

  it("a custom provider that lists no models accepts any id, with sensible defaults", () => {
    const cfg: OpenClawConfig = {
      models: {
        providers: { lab: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions" } },
      },
    };
    expect(resolveModel({ cfg, ref: ref("lab", "llama3") })).toMatchObject({
      ok: true,
      source: "custom-default",
      model: { id: "llama3", contextWindow: 200000, maxTokens: 8192, input: ["text"] },
    });
  });

  it("a model the provider's models[] does not list is unknown, with a did-you-mean", () => {
    const typo = resolveModel({ cfg: local, ref: ref("fake-local", "qwen3-codr"), env: {} });
    expect(typo).toMatchObject({ ok: false, suggestions: ["fake-local/qwen3-coder"] });
    if (typo.ok) return;
    expect(typo.error).toMatch(/unknown model fake-local\/qwen3-codr.*lists qwen3-coder/);
    // Far from every listed id: the list is still offered.
    const far = resolveModel({ cfg: local, ref: ref("fake-local", "llama3"), env: {} });
    expect(far).toMatchObject({ ok: false, suggestions: ["fake-local/qwen3-coder"] });
  });

  it("a configured built-in provider keeps its catalog: a typo is unknown, not a default model", () => {
    const cfg: OpenClawConfig = { models: { providers: { openai: { apiKey: "sk-x" } } } };
    const result = resolveModel({ cfg, ref: ref("openai", "gpt-4o-mnii") });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining("unknown model") });
    if (result.ok) return;
    expect(result.suggestions).toContain("openai/gpt-4o-mini");
  });

  it("an id its provider lacks but another has is suggested under that provider", () => {
    const result = resolveModel({ cfg: local, ref: ref("anthropic", "qwen3-coder") });
    expect(result).toMatchObject({ ok: false, suggestions: ["fake-local/qwen3-coder"] });
    const bare = resolveModel({ cfg: {}, ref: ref("anthropic", "gpt-4o") });
    expect(bare).toMatchObject({ ok: false });
    if (!bare.ok) expect(bare.suggestions[0]).toBe("openai/gpt-4o");
  });

  it("an unset env SecretRef in headers is an error, not a silent empty header", () => {
    const result = resolveModel({ cfg: local, ref: ref("fake-local", "qwen3-coder"), env: {} });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining("TEAM_SECRET") });
  });

  it("ollama speaks openai-completions under <baseUrl>/v1 (default localhost:11434)", () => {
    expect(resolveModel({ cfg: local, ref: ref("ollama", "llama3.1") })).toMatchObject({
      ok: true,
      model: { api: "openai-completions", baseUrl: "http://127.0.0.1:11434/v1" },
    });
    const cfg: OpenClawConfig = {
      models: { providers: { box: { api: "ollama", baseUrl: "http://gpu:11434" } } },
    };
    expect(resolveModel({ cfg, ref: ref("box", "x") })).toMatchObject({
      model: { baseUrl: "http://gpu:11434/v1" },
    });
  });

  it("a custom provider without baseUrl, or with an unsupported api, is an error", () => {
    const cfg = {
      models: {
        providers: {
          lab: { api: "openai-completions" },
          odd: { baseUrl: "http://x", api: "pi-messages" },
        },
      },
    } as unknown as OpenClawConfig;
    expect(resolveModel({ cfg, ref: ref("lab", "m") })).toMatchObject({
      ok: false,
      error: expect.stringContaining("baseUrl"),
    });
    expect(resolveModel({ cfg, ref: ref("odd", "m") })).toMatchObject({
      ok: false,
      error: expect.stringContaining("pi-messages"),
    });
  });

  it("merge mode: a provider entry with a built-in id overrides baseUrl of built-in models", () => {
    const cfg = {
      models: {
        providers: {
          "azure-openai-responses": { baseUrl: "https://acme.openai.azure.com/openai/v1" },
        },
      },
    };
    expect(resolveModel({ cfg, ref: ref("azure-openai-responses", "gpt-5.5") })).toMatchObject({
      ok: true,
      source: "builtin",
      model: {
        api: "azure-openai-responses",
        baseUrl: "https://acme.openai.azure.com/openai/v1",
        contextWindow: expect.any(Number),
      },
    });
  });

  it("replace mode hides the built-in catalog", () => {
    const cfg: OpenClawConfig = { models: { ...local.models, mode: "replace" } };
    const result = resolveModel({ cfg, ref: ref("anthropic", "claude-sonnet-4-5") });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining("replace") });
    expect(listKnownProviders(cfg)).toEqual(["fake-local", "ollama"]);
    expect(listModels({ cfg, env: { TEAM_SECRET: "s" } }).map((row) => row.ref)).toEqual([
      "fake-local/qwen3-coder",
    ]);
  });

  it("listModels lists custom models first, filtered by provider", () => {
    const rows = listModels({ cfg: local, env: { TEAM_SECRET: "s" } });
    expect(rows[0]).toMatchObject({ ref: "fake-local/qwen3-coder", source: "custom" });
    expect(
      rows.some((row) => row.ref === "anthropic/claude-sonnet-4-5" && row.source === "builtin"),
    ).toBe(true);
    const openrouter = listModels({ cfg: local, provider: "OpenRouter" });
    expect(openrouter.length).toBeGreaterThan(0);
    expect(openrouter.every((row) => row.provider === "openrouter")).toBe(true);
  });
});
