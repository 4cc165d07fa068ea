import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { resolveRoster } from "../../config/resolve.js";
import { MemoryIndexes } from "../../memory/index.js";
import { invokeTool } from "./invoke.js";
import { ProcessRegistry } from "./process-registry.js";
import type { SessionToolsHost } from "./session-tools-contract.js";
import { type BuildToolsetParams, buildToolset } from "./toolset.js";

const host = {} as SessionToolsHost;

function workspace(): string {
  const dir = makeTempDir("pincer-memory-tools-");
  mkdirSync(join(dir, "memory"));
  writeFileSync(join(dir, "MEMORY.md"), "# People\nAna prefers green tea\n");
  writeFileSync(
    join(dir, "memory", "2026-03-01.md"),
    "# Plans\nflight to Lima on Friday\nhotel booked\n",
  );
  writeFileSync(join(dir, "AGENTS.md"), "rules\n");
  return dir;
}

function tools(cfg: object, extra: Partial<BuildToolsetParams> & { workspaceDir: string }) {
  const list = buildToolset({
    cfg: resolveRoster(cfg),
    agentId: "main",
    sessionKey: "agent:main:main",
    host,
    jobs: new ProcessRegistry(),
    signal: new AbortController().signal,
    ...extra,
  });
  const byName = (name: string) => list.find((tool) => tool.name === name);
  return { names: list.map((tool) => tool.name), byName };
}

function payload(outcome: { content: Array<{ type: string; text?: string }> }) {
  return JSON.parse(outcome.content.map((block) => block.text ?? "").join(""));
}

describe("memory tools", () => {
  it("memory_search returns OpenClaw's result shape; memory_get reads the lines it names", async () => {
    const workspaceDir = workspace();
    const stateDir = makeTempDir("pincer-memory-tools-state-");
    const { byName } = tools({}, { workspaceDir, stateDir, memoryIndexes: new MemoryIndexes() });
    const search = await invokeTool({
      tool: byName("memory_search")!,
      args: { query: "flight Lima" },
    });
    expect(search.isError).toBe(false);
    const found = payload(search);
    expect(found.provider).toBe("bm25");
    expect(found.results).toHaveLength(1);
    expect(found.results[0]).toMatchObject({
      path: "memory/2026-03-01.md",
      startLine: 1,
      endLine: 3,
      snippet: "# Plans\nflight to Lima on Friday\nhotel booked",
      source: "memory",
    });
    expect(found.results[0].score).toBeGreaterThan(0);
    const get = await invokeTool({
      tool: byName("memory_get")!,
      args: { path: "memory/2026-03-01.md", from: 2, lines: 1 },
    });
    expect(payload(get)).toEqual({
      path: "memory/2026-03-01.md",
      from: 2,
      to: 2,
      totalLines: 3,
      text: "flight to Lima on Friday",
      truncated: false,
      nextFrom: 3,
    });
  });

  it("memory_get refuses anything but memory files as a tool error", async () => {
    const workspaceDir = workspace();
    const outside = makeTempDir("pincer-memory-tools-out-");
    writeFileSync(join(outside, "x.md"), "x\n");
    symlinkSync(join(outside, "x.md"), join(workspaceDir, "memory", "x.md"));
    const { byName } = tools({}, { workspaceDir });
    for (const path of ["AGENTS.md", "../x.md", "memory/x.md", join(outside, "x.md")]) {
      const out = await invokeTool({ tool: byName("memory_get")!, args: { path } });
      expect(out.isError, path).toBe(true);
      expect(out.content[0]).toMatchObject({ type: "text" });
    }
    const empty = await invokeTool({ tool: byName("memory_search")!, args: { query: "  " } });
    expect(empty.isError).toBe(true);
  });

  it("outside the main session and direct chats the tools answer disabled and read nothing", async () => {
    const workspaceDir = workspace();
    for (const sessionKey of ["agent:main:telegram:group:-100", "agent:main:cron:j1", undefined]) {
      const { byName } = tools({}, { workspaceDir, sessionKey });
      const search = await invokeTool({ tool: byName("memory_search")!, args: { query: "tea" } });
      expect(search.isError).toBe(false);
      expect(payload(search)).toMatchObject({ results: [], disabled: true });
      expect(payload(search).error).toMatch(/^memory is private/);
      const get = await invokeTool({ tool: byName("memory_get")!, args: { path: "MEMORY.md" } });
      expect(payload(get)).toMatchObject({ path: "MEMORY.md", text: "", disabled: true });
    }
    const direct = tools({}, { workspaceDir, sessionKey: "agent:main:telegram:direct:42" });
    const out = await invokeTool({ tool: direct.byName("memory_search")!, args: { query: "tea" } });
    expect(payload(out).results.map((r: { path: string }) => r.path)).toEqual(["MEMORY.md"]);
  });

  it("absent for sub-agents, with memorySearch.enabled false, and when policy denies group:memory", () => {
    const workspaceDir = workspace();
    const memoryTools = (names: string[]) => names.filter((name) => name.startsWith("memory_"));
    expect(memoryTools(tools({}, { workspaceDir }).names)).toEqual(["memory_search", "memory_get"]);
    expect(
      memoryTools(tools({}, { workspaceDir, sessionKey: "agent:main:subagent:s1" }).names),
    ).toEqual([]);
    const off = { agents: { list: [{ id: "main", memorySearch: { enabled: false } }] } };
    expect(memoryTools(tools(off, { workspaceDir }).names)).toEqual([]);
    const offByDefault = { agents: { defaults: { memorySearch: { enabled: false } } } };
    expect(memoryTools(tools(offByDefault, { workspaceDir }).names)).toEqual([]);
    const denied = { tools: { deny: ["group:memory"] } };
    expect(memoryTools(tools(denied, { workspaceDir }).names)).toEqual([]);
    const onlyGet = { tools: { allow: ["memory_get"] } };
    expect(tools(onlyGet, { workspaceDir }).names).toEqual(["memory_get"]);
    expect(
      memoryTools(tools({ tools: { profile: "coding" } }, { workspaceDir }).names),
    ).toHaveLength(2);
    expect(memoryTools(tools({ tools: { profile: "messaging" } }, { workspaceDir }).names)).toEqual(
      [],
    );
  });

  it("uses the agent's query defaults and extra paths", async () => {
    const workspaceDir = workspace();
    const team = makeTempDir("pincer-memory-tools-team-");
    writeFileSync(join(team, "a.md"), "tea policy\n");
    writeFileSync(join(team, "b.md"), "tea tea kettle\n");
    const cfg = {
      agents: {
        list: [{ id: "main", memorySearch: { extraPaths: [team], query: { maxResults: 2 } } }],
      },
    };
    const { byName } = tools(cfg, { workspaceDir });
    const out = payload(
      await invokeTool({ tool: byName("memory_search")!, args: { query: "tea" } }),
    );
    expect(out.results).toHaveLength(2);
    const all = payload(
      await invokeTool({ tool: byName("memory_search")!, args: { query: "tea", maxResults: 5 } }),
    );
    expect(all.results.map((r: { path: string }) => r.path).sort()).toEqual(
      ["MEMORY.md", join(team, "a.md"), join(team, "b.md")].sort(),
    );
  });
});
