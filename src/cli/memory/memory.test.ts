import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";

/** A sandbox whose default workspace (~/.openclaw/workspace) holds a few memory files. */
function sandbox() {
  const sb = createCliSandbox();
  const ws = join(sb.stateDir, "workspace");
  mkdirSync(join(ws, "memory"), { recursive: true });
  writeFileSync(join(ws, "MEMORY.md"), "# People\nAna prefers green tea\n");
  writeFileSync(
    join(ws, "memory", "2026-03-01.md"),
    "# Plans\nflight to Lima\n\n# Food\ngreen curry\n",
  );
  sb.writeConfig("{}");
  return { sb, ws, store: join(sb.stateDir, "memory", "main.json") };
}

describe("pincer memory", () => {
  it("index embeds the chunks when a provider is set; status shows them without asking the model", async () => {
    let requests = 0;
    const server = createServer((req, res) => {
      let text = "";
      req.on("data", (c) => {
        text += c;
      });
      req.on("end", () => {
        requests += 1;
        const { input } = JSON.parse(text) as { input: string[] };
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({ data: input.map((_, index) => ({ index, embedding: [1, index] })) }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { sb, store } = sandbox();
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      sb.writeConfig(
        JSON.stringify({
          agents: {
            defaults: {
              memorySearch: { provider: "custom", model: "toy", remote: { baseUrl, apiKey: "k" } },
            },
          },
        }),
      );
      const before = await sb.run(["memory", "status"]);
      expect(before.stdout).toContain("embeddings: custom/toy, 0 of 3 chunk(s) embedded");
      expect(requests).toBe(0);
      const indexed = await sb.run(["memory", "index"]);
      expect(indexed.stdout).toContain("3 of 3 chunk(s) embedded with custom/toy");
      expect(requests).toBe(1);
      const status = JSON.parse((await sb.run(["memory", "status", "--json"])).stdout);
      expect(status.embeddings).toEqual({ provider: "custom", model: "toy", vectors: 3 });
      expect(requests).toBe(1);
      expect(JSON.parse(readFileSync(store, "utf8")).embedder).toBe(`custom/toy@${baseUrl}`);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("status reads without writing; index builds the store; status then says up to date", async () => {
    const { sb, ws, store } = sandbox();
    const before = await sb.run(["memory", "status"]);
    expect(before.code).toBe(0);
    expect(before.stdout.split("\n").slice(0, 5)).toEqual([
      "Memory of agent main (on)",
      "workspace: ~/.openclaw/workspace",
      "extra paths: none",
      "index: ~/.openclaw/memory/main.json: not built yet (pincer memory index, or the first memory_search, builds it)",
      "2 file(s), 3 chunk(s)",
    ]);
    expect(before.stdout).toMatch(/memory\/2026-03-01\.md\s+2\s+\d+/);
    expect(existsSync(store)).toBe(false);

    const indexed = await sb.run(["memory", "index"]);
    expect(indexed.code).toBe(0);
    expect(indexed.stdout).toBe(
      "Indexed 2 file(s), 3 chunk(s) of agent main: 2 added, 0 updated, 0 removed → ~/.openclaw/memory/main.json\n",
    );
    expect(existsSync(store)).toBe(true);
    const status = JSON.parse((await sb.run(["memory", "status", "--json"])).stdout);
    expect(status).toMatchObject({
      agentId: "main",
      enabled: true,
      workspace: ws,
      index: { path: store, state: "up to date", start: "loaded" },
      chunks: 3,
    });
    expect(status.files.map((f: { path: string }) => f.path)).toEqual([
      "MEMORY.md",
      "memory/2026-03-01.md",
    ]);

    rmSync(join(ws, "MEMORY.md"));
    const changed = JSON.parse((await sb.run(["memory", "status", "--json"])).stdout);
    expect(changed.index).toMatchObject({ removed: 1 });
    expect(changed.index.state).toMatch(/^1 file\(s\) changed/);
    const forced = JSON.parse((await sb.run(["memory", "index", "--force", "--json"])).stdout);
    expect(forced).toMatchObject({ start: "rebuilt", files: 1, added: 1 });
  });

  it("search prints ranked snippets with line ranges, or JSON; --max-results caps them", async () => {
    const { sb } = sandbox();
    const res = await sb.run(["memory", "search", "green", "tea"]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^0\.\d{4} {2}MEMORY\.md:1-2$/);
    expect(lines.slice(1, 3)).toEqual(["    # People", "    Ana prefers green tea"]);
    expect(lines[3]).toMatch(/^0\.\d{4} {2}memory\/2026-03-01\.md:4-5$/);
    const json = JSON.parse(
      (await sb.run(["memory", "search", "green", "--json", "--max-results", "1"])).stdout,
    );
    expect(json.query).toBe("green");
    expect(json.results).toHaveLength(1);
    expect(json.results[0]).toMatchObject({ startLine: expect.any(Number), source: "memory" });
    const none = await sb.run(["memory", "search", "volcano"]);
    expect(none.stdout).toBe('No memory matches "volcano" (agent main, 2 file(s) searched).\n');
  });

  it("uses the agent's workspace and extra paths, and refuses bad input with a clear error", async () => {
    const { sb } = sandbox();
    mkdirSync(join(sb.home, "ws-work", "memory"), { recursive: true });
    writeFileSync(join(sb.home, "ws-work", "memory", "w.md"), "quarterly budget\n");
    mkdirSync(join(sb.home, "team"));
    writeFileSync(join(sb.home, "team", "t.md"), "budget owner: Luis\n");
    sb.writeConfig(`{
      agents: { list: [
        { id: "main" },
        { id: "work", workspace: "~/ws-work", memorySearch: { extraPaths: ["~/team", "~/nope"] } },
        { id: "quiet", memorySearch: { enabled: false } },
      ] },
    }`);
    const res = await sb.run(["memory", "search", "budget", "--agent", "work", "--json"]);
    expect(res.code).toBe(0);
    expect(
      JSON.parse(res.stdout)
        .results.map((r: { path: string }) => r.path)
        .sort(),
    ).toEqual([join(sb.home, "team", "t.md"), "memory/w.md"].sort());
    expect(res.stderr).toBe("warning: memorySearch.extraPaths: ~/nope: not found\n");
    expect(readFileSync(join(sb.stateDir, "memory", "work.json"), "utf8")).toContain(
      "quarterly budget",
    );

    const quiet = await sb.run(["memory", "search", "x", "--agent", "quiet"]);
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).toContain(
      "memory search is off for agent quiet (memorySearch.enabled: false); set it to true to use it",
    );
    const status = await sb.run(["memory", "status", "--agent", "quiet"]);
    expect(status.stdout.split("\n")[0]).toBe(
      "Memory of agent quiet (off: memorySearch.enabled is false)",
    );
    const unknown = await sb.run(["memory", "status", "--agent", "ghost"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown agent "ghost"');
    const bad = await sb.run(["memory", "search", "x", "--max-results", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-results expects a whole number of 1 or more, got "0"');
  });
});
