import { describe, expect, it } from "vitest";
import { resolveRoster } from "../../config/resolve.js";
import {
  buildModelAliases,
  DEFAULT_MODEL_REF,
  formatModelRef,
  parseModelRef,
  resolveAgentModelChain,
  resolveModelParams,
} from "./refs.js";

describe("parseModelRef", () => {
  it("splits at the first slash, so OpenRouter ids keep theirs", () => {
    expect(parseModelRef("openrouter/moonshotai/kimi-k2")).toEqual({
      ok: true,
      ref: { provider: "openrouter", model: "moonshotai/kimi-k2" },
    });
    expect(parseModelRef(" Anthropic/claude-sonnet-4-5 ")).toEqual({
      ok: true,
      ref: { provider: "anthropic", model: "claude-sonnet-4-5" },
    });
  });

  it("reads a bare name as an alias (case-insensitive), else a model of the default provider", () => {
    const aliases = new Map([["opus", "anthropic/claude-opus-4-6"]]);
    expect(parseModelRef("Opus", { aliases })).toEqual({
      ok: true,
      ref: { provider: "anthropic", model: "claude-opus-4-6" },
      alias: "Opus",
    });
    expect(parseModelRef("gpt-5.4", { aliases })).toEqual({
      ok: true,
      ref: { provider: "anthropic", model: "gpt-5.4" },
    });
    expect(parseModelRef("gpt-5.4", { defaultProvider: "openai" })).toMatchObject({
      ref: { provider: "openai", model: "gpt-5.4" },
    });
  });

  it("normalizes provider spellings and rejects empty parts", () => {
    expect(parseModelRef("z.ai/glm-4.6")).toMatchObject({ ref: { provider: "zai" } });
    expect(parseModelRef("")).toEqual({ ok: false, error: "model ref is empty" });
    expect(parseModelRef("openai/")).toMatchObject({
      ok: false,
      error: expect.stringContaining("no model"),
    });
    expect(parseModelRef("/gpt")).toMatchObject({
      ok: false,
      error: expect.stringContaining("no provider"),
    });
  });

  it("formats back to provider/model", () => {
    expect(formatModelRef({ provider: "openrouter", model: "moonshotai/kimi-k2" })).toBe(
      "openrouter/moonshotai/kimi-k2",
    );
  });
});

const cfg = resolveRoster({
  agents: {
    defaults: {
      model: { primary: "sonnet", fallbacks: ["openai/gpt-5.4", "openrouter/moonshotai/kimi-k2"] },
      models: {
        "anthropic/claude-sonnet-4-5": {
          alias: "sonnet",
          params: { temperature: 0.2, maxTokens: 4000 },
        },
        "openai/gpt-5.4": { alias: "gpt", params: { temperature: 1 } },
      },
      params: { cacheRetention: "short" },
    },
    list: [
      { id: "main" },
      { id: "work", model: "gpt", params: { maxTokens: 1000 } },
      { id: "solo", model: { primary: "anthropic/claude-haiku-4-5", fallbacks: [] } },
      {
        id: "dup",
        model: { primary: "openai/gpt-5.4", fallbacks: ["gpt", "anthropic/claude-sonnet-4-5"] },
      },
      {
        id: "own",
        model: "house",
        models: { "openai/gpt-5.4-mini": { alias: "house", params: { temperature: 0.5 } } },
      },
    ],
  },
});

describe("resolveAgentModelChain", () => {
  it("uses the defaults (through aliases) with params from the catalog under defaults.params", () => {
    const chain = resolveAgentModelChain({ cfg, agentId: "main" });
    expect(chain.primary).toEqual({ provider: "anthropic", model: "claude-sonnet-4-5" });
    expect(chain.fallbacks.map(formatModelRef)).toEqual([
      "openai/gpt-5.4",
      "openrouter/moonshotai/kimi-k2",
    ]);
    expect(chain.params).toEqual({ temperature: 0.2, maxTokens: 4000, cacheRetention: "short" });
    expect(chain.links[0]).toMatchObject({
      role: "primary",
      alias: "sonnet",
      path: ["agents", "defaults", "model", "primary"],
    });
    expect(chain.links[2].path).toEqual(["agents", "defaults", "model", "fallbacks", 1]);
  });

  it("a string model replaces the primary only; agent params win over the catalog", () => {
    const chain = resolveAgentModelChain({ cfg, agentId: "work" });
    expect(formatModelRef(chain.primary!)).toBe("openai/gpt-5.4");
    expect(chain.links[0].path).toEqual(["agents", "list", 1, "model"]);
    // gpt-5.4 is also the first default fallback: deduplicated.
    expect(chain.fallbacks.map(formatModelRef)).toEqual(["openrouter/moonshotai/kimi-k2"]);
    expect(chain.params).toEqual({ temperature: 1, cacheRetention: "short", maxTokens: 1000 });
  });

  it("an explicit empty fallbacks list disables the defaults' fallbacks", () => {
    const chain = resolveAgentModelChain({ cfg, agentId: "solo" });
    expect(formatModelRef(chain.primary!)).toBe("anthropic/claude-haiku-4-5");
    expect(chain.fallbacks).toEqual([]);
  });

  it("drops fallbacks equal to the primary or to an earlier fallback", () => {
    const chain = resolveAgentModelChain({ cfg, agentId: "dup" });
    expect(chain.fallbacks.map(formatModelRef)).toEqual(["anthropic/claude-sonnet-4-5"]);
  });

  it("an agent's own models map adds aliases and params", () => {
    const chain = resolveAgentModelChain({ cfg, agentId: "own" });
    expect(formatModelRef(chain.primary!)).toBe("openai/gpt-5.4-mini");
    expect(chain.params).toEqual({ cacheRetention: "short", temperature: 0.5 });
    expect(buildModelAliases(cfg, "own").get("house")).toBe("openai/gpt-5.4-mini");
    expect(buildModelAliases(cfg).has("house")).toBe(false);
  });

  it("falls back to OpenClaw's default model, and to the legacy top-level agent block", () => {
    expect(resolveAgentModelChain({ cfg: resolveRoster({}), agentId: "main" })).toMatchObject({
      agentId: "main",
      primary: { provider: "anthropic", model: "claude-opus-4-6" },
      fallbacks: [],
      links: [{ raw: DEFAULT_MODEL_REF, path: [] }],
    });
    const legacy = resolveAgentModelChain({
      cfg: resolveRoster({ agent: { model: "openai/gpt-5.4" } }),
      agentId: "x",
    });
    expect(legacy.links[0].path).toEqual(["agent", "model"]);
  });

  it("accepts agents.entries keyed by id and reports refs that do not parse", () => {
    const chain = resolveAgentModelChain({
      cfg: resolveRoster({
        agents: {
          entries: { ops: { model: { primary: "openai/", fallbacks: ["google/gemini-2.5-pro"] } } },
        },
      }),
      agentId: "ops",
    });
    expect(chain.primary).toBeUndefined();
    expect(chain.problems).toEqual([
      {
        path: ["agents", "entries", "ops", "model", "primary"],
        raw: "openai/",
        message: expect.any(String),
      },
    ]);
    expect(chain.fallbacks.map(formatModelRef)).toEqual(["google/gemini-2.5-pro"]);
  });

  it("resolveModelParams works for any ref of the agent (fallbacks too)", () => {
    const ref = { provider: "openai", model: "gpt-5.4" };
    expect(resolveModelParams({ cfg, agentId: "main", ref })).toEqual({
      temperature: 1,
      cacheRetention: "short",
    });
  });
});
