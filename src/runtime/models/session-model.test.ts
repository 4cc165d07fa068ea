import { describe, expect, it } from "vitest";
import { resolveRoster } from "../../config/resolve.js";
import { formatModelRef } from "./refs.js";
import {
  checkModelChoice,
  listAllowedModels,
  resolveSessionModelChain,
  sessionModelOverrideText,
} from "./session-model.js";

const providers = {
  mode: "merge",
  providers: {
    local: {
      baseUrl: "http://127.0.0.1:1/v1",
      api: "openai-completions",
      models: ["a", "b", "c"].map((id) => ({ id, name: id })),
    },
  },
};

function scopeOf(defaults: Record<string, unknown>) {
  const cfg = resolveRoster({
    models: providers,
    agents: {
      defaults: { model: { primary: "local/a", fallbacks: ["local/b"] }, ...defaults },
      list: [{ id: "main" }],
    },
  });
  return { cfg, agentId: "main", env: {} };
}

describe("session model choice", () => {
  it("a catalog closes the choice to it and the chain; aliases name its entries", () => {
    const scope = scopeOf({ models: { "local/c": { alias: "cee" } } });
    expect(listAllowedModels(scope)).toEqual({
      models: [{ ref: "local/a" }, { ref: "local/b" }, { ref: "local/c", alias: "cee" }],
      open: false,
    });
    expect(checkModelChoice(scope, "cee")).toEqual({
      ok: true,
      ref: { provider: "local", model: "c" },
      alias: "cee",
    });
    expect(checkModelChoice(scope, "local/b")).toMatchObject({ ok: true });
    const open = scopeOf({});
    expect(checkModelChoice(open, "local/c")).toMatchObject({ ok: true });
    expect(checkModelChoice(open, "local/zzz")).toMatchObject({ ok: false });
  });

  it("the model policy refuses what it forbids, and the list leaves it out", () => {
    const scope = scopeOf({ modelPolicy: { forbid: ["local/b"], onMismatch: "fail" } });
    expect(checkModelChoice(scope, "local/b")).toEqual({
      ok: false,
      error: expect.stringContaining("forbidden by modelPolicy"),
    });
    expect(listAllowedModels(scope).models.map((model) => model.ref)).toEqual(["local/a"]);
  });

  it("a run's chain puts the override first, keeps the other fallbacks, refuses a bad override", () => {
    const scope = scopeOf({});
    const entry = { providerOverride: "local", modelOverride: "b" };
    expect(sessionModelOverrideText(entry)).toBe("local/b");
    expect(sessionModelOverrideText({ modelOverride: "local/c" })).toBe("local/c");
    expect(sessionModelOverrideText({})).toBeUndefined();
    const chained = resolveSessionModelChain(scope, entry);
    if (!chained.ok) throw new Error(chained.error);
    expect(chained.chain.primary && formatModelRef(chained.chain.primary)).toBe("local/b");
    expect(chained.chain.fallbacks).toEqual([]);
    const plain = resolveSessionModelChain(scope, undefined);
    expect(plain.ok && plain.chain.fallbacks.map(formatModelRef)).toEqual(["local/b"]);
    expect(resolveSessionModelChain(scope, { modelOverride: "local/zzz" })).toEqual({
      ok: false,
      error: expect.stringContaining('model override "local/zzz" cannot be used'),
    });
  });
});
