import { describe, expect, it } from "vitest";
import { findCompatKeys } from "../config/compat-keys.js";
import { resolveRoster } from "../config/resolve.js";
import { validateConfig } from "../config/validate.js";
import { resolveMemorySearchSettings } from "./settings.js";

describe("resolveMemorySearchSettings", () => {
  it("defaults: on, no extra paths, OpenClaw's chunking and 6 results, every match", () => {
    expect(resolveMemorySearchSettings(resolveRoster({}), "main", {})).toEqual({
      enabled: true,
      extraPaths: [],
      chunking: { tokens: 400, overlap: 80 },
      maxResults: 6,
      minScore: 0,
      hybrid: { enabled: true, vectorWeight: 0.7, textWeight: 0.3, candidateMultiplier: 4 },
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
    expect(resolveMemorySearchSettings(cfg, "main", {})).toEqual({
      enabled: true,
      extraPaths: ["../team", "../shared.md", "~/notes"],
      chunking: { tokens: 200, overlap: 80 },
      maxResults: 9,
      minScore: 0.2,
      hybrid: { enabled: true, vectorWeight: 0.7, textWeight: 0.3, candidateMultiplier: 4 },
    });
    expect(resolveMemorySearchSettings(cfg, "quiet", {}).enabled).toBe(false);
  });

  it("embeddings: the agent's provider block wins whole, hybrid merges key by key", () => {
    const cfg = resolveRoster({
      agents: {
        defaults: {
          memorySearch: {
            provider: "openai",
            remote: { apiKey: "sk-shared" },
            query: { hybrid: { vectorWeight: 0.5, candidateMultiplier: 2 } },
          },
        },
        list: [
          { id: "main" },
          {
            id: "ops",
            memorySearch: {
              provider: "custom",
              model: "m",
              remote: { baseUrl: "http://127.0.0.1:9/v1" },
              query: { hybrid: { enabled: false } },
            },
          },
        ],
      },
    });
    const main = resolveMemorySearchSettings(cfg, "main", {});
    expect(main.embeddings).toMatchObject({ provider: "openai", apiKey: "sk-shared" });
    expect(main.hybrid).toEqual({
      enabled: true,
      vectorWeight: 0.5,
      textWeight: 0.3,
      candidateMultiplier: 2,
    });
    const ops = resolveMemorySearchSettings(cfg, "ops", {});
    expect(ops.embeddings).toMatchObject({
      provider: "custom",
      model: "m",
      baseUrl: "http://127.0.0.1:9/v1",
    });
    expect(ops.embeddings?.keyProblem).toMatch(/no API key for embedding provider "custom"/);
    expect(ops.hybrid).toEqual({
      enabled: false,
      vectorWeight: 0.5,
      textWeight: 0.3,
      candidateMultiplier: 2,
    });
  });

  it("keeps the overlap under the chunk size", () => {
    const cfg = resolveRoster({
      agents: { defaults: { memorySearch: { chunking: { tokens: 10, overlap: 50 } } } },
    });
    expect(resolveMemorySearchSettings(cfg, "main", {}).chunking).toEqual({
      tokens: 10,
      overlap: 9,
    });
  });
});

describe("memorySearch compat marks", () => {
  it("implemented keys (embeddings included) validate silently; what has no counterpart is reported", () => {
    const config = {
      agents: {
        defaults: {
          memorySearch: {
            enabled: true,
            extraPaths: ["../team"],
            chunking: { tokens: 300, overlap: 40 },
            query: { maxResults: 4, minScore: 0.1, hybrid: { enabled: true } },
            provider: "openai",
            model: "text-embedding-3-small",
            remote: { apiKey: "k", baseUrl: "https://api.openai.com/v1", headers: { "x-a": "1" } },
            local: { modelPath: "x.gguf" },
            sync: { watch: true },
            sources: ["memory", "sessions"],
          },
        },
      },
    };
    expect(validateConfig(config).issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(findCompatKeys(config).map((use) => use.path)).toEqual([
      "agents.defaults.memorySearch.local",
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
