// Preloading the run modules after start: the provider APIs warmed are those of the agents' primary
// models, and a preload that fails is logged, never thrown.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../../../test/helpers/fake-openai.js";
import { type ResolvedConfig, resolveConfig, resolveStatePaths } from "../../config/index.js";
import { createEntryLogger, type LogEntry } from "../../lib/logger.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { acquireStateDirLock } from "../../sessions/index.js";
import { primaryModelApis } from "./provider-warmup.js";
import { RunResources } from "./run-resources.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function resolved(config: OpenClawConfig, home = "/home/u"): ResolvedConfig {
  return resolveConfig({ config, paths: resolveStatePaths({ env: { HOME: home } }) });
}

describe("primaryModelApis", () => {
  it("lists the API of every agent's primary model once, skipping refs that do not resolve", () => {
    const cfg = resolved({
      models: {
        mode: "merge",
        providers: {
          local: {
            baseUrl: "http://127.0.0.1:1/v1",
            api: "openai-completions",
            models: [{ id: "m1", name: "m1" }],
          },
        },
      },
      agents: {
        defaults: { model: "local/m1" },
        list: [
          { id: "main" },
          { id: "ops", model: "local/m1" },
          { id: "writer", model: "anthropic/claude-opus-4-6" },
          { id: "typo", model: "nosuch/model" },
        ],
      },
    } as OpenClawConfig);
    expect(primaryModelApis(cfg, {}).sort()).toEqual(["anthropic-messages", "openai-completions"]);
  });
});

describe("RunResources.preload", () => {
  it("logs a failed preload instead of throwing, and loads once however often it is called", async () => {
    const home = mkdtempSync(join(tmpdir(), "pincer-preload-"));
    dirs.push(home);
    const cfg = resolved({}, home);
    const lock = acquireStateDirLock({ stateDir: join(home, ".openclaw") });
    const entries: LogEntry[] = [];
    let broken = false;
    const runtime = new RunResources({
      // The constructor reads the config; the preload's read fails.
      config: () => {
        if (broken) throw new Error("config unavailable");
        return cfg;
      },
      paths: cfg.paths,
      env: {},
      lock,
      logger: createEntryLogger((entry) => entries.push(entry)),
    });
    broken = true;
    try {
      const first = runtime.preload();
      expect(runtime.preload()).toBe(first);
      await expect(first).resolves.toBeUndefined();
      const failures = entries.filter((entry) => entry.msg === "preloading the run modules failed");
      expect(failures).toHaveLength(1);
      expect(failures[0]?.level).toBe("warn");
      expect(String(failures[0]?.fields.error)).toContain("config unavailable");
    } finally {
      await runtime.close();
      lock.release();
    }
  });

  it("warms each agent's run path: its store opened, its request built, nothing sent", async () => {
    const fake = await startFakeOpenAI();
    const home = mkdtempSync(join(tmpdir(), "pincer-preload-"));
    dirs.push(home);
    const cfg = resolved(
      {
        models: {
          mode: "merge",
          providers: {
            fake: {
              baseUrl: fake.baseUrl,
              apiKey: "sk-test",
              api: "openai-completions",
              models: [{ id: "m1", name: "m1" }],
            },
          },
        },
        agents: {
          defaults: { model: "fake/m1", workspace: join(home, "ws") },
          list: [{ id: "main" }, { id: "ops" }],
        },
      } as OpenClawConfig,
      home,
    );
    const lock = acquireStateDirLock({ stateDir: join(home, ".openclaw") });
    const entries: LogEntry[] = [];
    const runtime = new RunResources({
      config: () => cfg,
      paths: cfg.paths,
      env: {},
      lock,
      logger: createEntryLogger((entry) => entries.push(entry)),
    });
    try {
      await runtime.preload();
      expect(runtime.stores.opened()).toHaveLength(2);
      expect(fake.requests).toHaveLength(0);
      expect(entries.filter((entry) => entry.level !== "debug")).toEqual([]);
    } finally {
      await runtime.close();
      lock.release();
      await fake.close();
    }
  });
});
