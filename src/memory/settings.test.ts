import { describe, expect, it } from "vitest";
import { findCompatKeys } from "../config/compat-keys.js";
import { resolveRoster } from "../config/resolve.js";
import { validateConfig } from "../config/validate.js";
import { resolveMemorySearchSettings } from "./settings.js";

describe("resolveMemorySearchSettings", () => {
  it("defaults: on, no extra paths, OpenClaw's chunking and 6 results, every match", () => {
    expect(resolveMemorySearchSettings(resolveRoster({}), "main")).toEqual({
      enabled: true,
      extraPaths: [],
      chunking: { tokens: 400, overlap: 80 },
      maxResults: 6,
      minScore: 0,
    });
  });

  it("an agent's keys win over agents.defaults; extraPaths of both are merged", () => {
    const cfg = resolveRoster({
      agents: {
        defaults: {
          memorySearch: {
            extraPaths: ["../team", " ../shared.md "],
            chunking: { tokens: 200 },
            query: { maxResults: 3, minScore: 0.2 },
          },
        },
        list: [
          {
            id: "main",
            memorySearch: { extraPaths: ["../team", "~/notes"], query: { maxResults: 9 } },
          },
          { id: "quiet", memorySearch: { enabled: false } },
        ],
      },
    });
    expect(resolveMemorySearchSettings(cfg, "main")).toEqual({
      enabled: true,
      extraPaths: ["../team", "../shared.md", "~/notes"],
      chunking: { tokens: 200, overlap: 80 },
      maxResults: 9,
      minScore: 0.2,
    });
    expect(resolveMemorySearchSettings(cfg, "quiet").enabled).toBe(false);
  });

  it("keeps the overlap under the chunk size", () => {
    const cfg = resolveRoster({
      agents: { defaults: { memorySearch: { chunking: { tokens: 10, overlap: 50 } } } },
    });
    expect(resolveMemorySearchSettings(cfg, "main").chunking).toEqual({ tokens: 10, overlap: 9 });
  });
});

describe("memorySearch compat marks", () => {
  it("implemented keys validate silently; the embedding keys are reported as accepted and ignored", () => {
    const config = {
      agents: {
        defaults: {
          memorySearch: {
            enabled: true,
            extraPaths: ["../team"],
            chunking: { tokens: 300, overlap: 40 },
            query: { maxResults: 4, minScore: 0.1, hybrid: { enabled: true } },
            provider: "openai",
            remote: { apiKey: "k" },
            sync: { watch: true },
            sources: ["memory", "sessions"],
          },
        },
      },
    };
    expect(validateConfig(config).issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(findCompatKeys(config).map((use) => use.path)).toEqual([
      "agents.defaults.memorySearch.query.hybrid",
      "agents.defaults.memorySearch.provider",
      "agents.defaults.memorySearch.remote",
      "agents.defaults.memorySearch.sync",
      "agents.defaults.memorySearch.sources",
    ]);
  });

  it("rejects a wrongly typed implemented key", () => {
    const issues = validateConfig({
      agents: { defaults: { memorySearch: { extraPaths: "x" } } },
    }).issues;
    expect(
      issues.some((i) => i.severity === "error" && i.path.includes("memorySearch.extraPaths")),
    ).toBe(true);
  });
});
