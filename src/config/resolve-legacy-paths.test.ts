// Config paths of values the legacy top-level `agent` block supplies: a message about a folded value
// names where the file writes it (`agent.modelFallbacks[0]`, a string `agent.model` for the primary,
// `agent.sandbox.mode` under a modern `agents.defaults.sandbox`), never a path the file lacks.
import { describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../protocol/config/index.js";
import { formatConfigPath } from "./config-path.js";
import { resolveStatePaths } from "./paths.js";
import { defaultsKeyPath, defaultsValuePath, resolveConfig } from "./resolve.js";

const paths = resolveStatePaths({ env: { HOME: "/home/u" } });
const resolve = (config: unknown) => resolveConfig({ config: config as OpenClawConfig, paths });
const at = (config: unknown, ...segments: (string | number)[]) =>
  formatConfigPath(defaultsValuePath(resolve(config), segments));

describe("paths of folded legacy values", () => {
  it("modelFallbacks and a string model folded into { primary, fallbacks }", () => {
    const cfg = { agent: { model: "a/b", modelFallbacks: ["c/d", "e/f"] } };
    expect(at(cfg, "model", "primary")).toBe("agent.model");
    expect(at(cfg, "model", "fallbacks", 1)).toBe("agent.modelFallbacks[1]");
  });

  it("legacy fallbacks under a modern model object that has none", () => {
    const cfg = {
      agent: { modelFallbacks: ["c/d"] },
      agents: { defaults: { model: { primary: "a/b" } } },
    };
    expect(at(cfg, "model", "primary")).toBe("agents.defaults.model.primary");
    expect(at(cfg, "model", "fallbacks", 0)).toBe("agent.modelFallbacks[0]");
  });

  it("a legacy string model filling a modern model object's missing primary", () => {
    const cfg = {
      agent: { model: "a/b" },
      agents: { defaults: { model: { fallbacks: ["c/d"] } } },
    };
    expect(at(cfg, "model", "primary")).toBe("agent.model");
    expect(at(cfg, "model", "fallbacks", 0)).toBe("agents.defaults.model.fallbacks[0]");
  });

  it("a nested legacy key under a modern object, and whole legacy keys", () => {
    const cfg = {
      agent: { sandbox: { mode: "all" }, timeoutSeconds: 5, model: { primary: "a/b" } },
      agents: { defaults: { sandbox: { scope: "session" } } },
    };
    expect(at(cfg, "sandbox", "mode")).toBe("agent.sandbox.mode");
    expect(at(cfg, "sandbox", "scope")).toBe("agents.defaults.sandbox.scope");
    expect(at(cfg, "model", "primary")).toBe("agent.model.primary");
    expect(formatConfigPath(defaultsKeyPath(resolve(cfg), "timeoutSeconds"))).toBe(
      "agent.timeoutSeconds",
    );
  });

  it("a key the modern defaults set stays under agents.defaults", () => {
    const cfg = { agent: { model: "a/b" }, agents: { defaults: { model: "c/d" } } };
    expect(at(cfg, "model")).toBe("agents.defaults.model");
  });
});
