import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentMessage, agentLoop } from "@mariozechner/pi-agent-core";
import {
  fauxAssistantMessage,
  fauxToolCall,
  type Message,
  registerFauxProvider,
  type ToolResultMessage,
} from "@mariozechner/pi-ai";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { resolveRoster } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { invokeTool } from "./invoke.js";
import { ProcessRegistry } from "./process-registry.js";
import type { SessionToolsHost } from "./session-tools-contract.js";
import { type BuildToolsetParams, buildToolset } from "./toolset.js";
import { type AnyAgentTool, ToolError } from "./types.js";
import { wrapTool } from "./wrap.js";

const registries: ProcessRegistry[] = [];
const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await Promise.all(registries.splice(0).map((jobs) => jobs.stopAll()));
});

const host: SessionToolsHost = {
  status: () => ({
    agentId: "main",
    sessionKey: "agent:main:main",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  }),
  list: () => [],
  history: () => [],
  send: async () => ({ status: "accepted" }),
  spawn: async () => ({ status: "accepted", childSessionKey: "agent:main:subagent:x" }),
};

/** A config as written (`applyPatch: true` is accepted at run time though the schema wants an object). */
function build(cfg: object, extra: Partial<BuildToolsetParams> = {}) {
  const workspaceDir = makeTempDir("pincer-toolset-");
  const jobs = new ProcessRegistry();
  registries.push(jobs);
  const tools = buildToolset({
    cfg: resolveRoster(cfg),
    agentId: "main",
    sessionKey: "agent:main:main",
    workspaceDir,
    host,
    jobs,
    signal: new AbortController().signal,
    ...extra,
  });
  return { tools, workspaceDir, byName: (name: string) => tools.find((t) => t.name === name) };
}

function text(outcome: { content: Array<{ type: string; text?: string }> }): string {
  return outcome.content.map((block) => block.text ?? "").join("\n");
}

describe("buildToolset", () => {
  it("offers every built-in except apply_patch by default", () => {
    expect(build({}).tools.map((t) => t.name)).toEqual([
      "read",
      "write",
      "edit",
      "exec",
      "process",
      "memory_search",
      "memory_get",
      "session_status",
      "sessions_list",
      "sessions_history",
      "sessions_send",
      "sessions_spawn",
    ]);
  });

  it("exec commands run with the env it is given (process env + config env vars)", async () => {
    const env = { PATH: process.env.PATH, PINCER_CFG_VAR: "from-config-env" };
    const exec = build({}, { env }).byName("exec");
    const out = await invokeTool({ tool: exec!, args: { command: 'echo "v=$PINCER_CFG_VAR"' } });
    expect(text(out)).toContain("v=from-config-env");
  });

  it("offers apply_patch only when tools.exec.applyPatch enables it (true or { enabled: true })", () => {
    expect(build({ tools: { exec: { applyPatch: true } } }).byName("apply_patch")).toBeDefined();
    expect(
      build({ tools: { exec: { applyPatch: { enabled: true } } } }).byName("apply_patch"),
    ).toBeDefined();
    expect(
      build({ tools: { exec: { applyPatch: { enabled: false } } } }).byName("apply_patch"),
    ).toBeUndefined();
    const denied = build({ tools: { exec: { applyPatch: true }, deny: ["apply_patch"] } });
    expect(denied.byName("apply_patch")).toBeUndefined();
  });

  it("gives a family agent (allowlist plus denylist) exactly its allowed tools", () => {
    const cfg = {
      tools: { exec: { applyPatch: true } },
      agents: {
        list: [
          { id: "main" },
          {
            id: "family",
            tools: {
              allow: [
                "exec",
                "read",
                "sessions_list",
                "sessions_history",
                "sessions_send",
                "sessions_spawn",
                "session_status",
              ],
              deny: ["write", "edit", "apply_patch", "browser", "canvas", "nodes", "cron"],
            },
          },
        ],
      },
    };
    const { tools } = build(cfg, { agentId: "family" });
    expect(tools.map((t) => t.name)).toEqual([
      "read",
      "exec",
      "session_status",
      "sessions_list",
      "sessions_history",
      "sessions_send",
      "sessions_spawn",
    ]);
    // No `process` tool: exec says so instead of starting jobs nobody can read.
    expect(tools.find((t) => t.name === "exec")?.description).not.toContain("background");
  });

  it("restricts file tools to the workspace with tools.fs.workspaceOnly, and apply_patch by default", async () => {
    const outside = makeTempDir("pincer-outside-");
    writeFileSync(join(outside, "x.txt"), "x\n");
    const open = build({ tools: { exec: { applyPatch: true } } });
    expect(
      text(
        await invokeTool({ tool: open.byName("read")!, args: { path: join(outside, "x.txt") } }),
      ),
    ).toBe("x");
    const patch = `*** Begin Patch\n*** Delete File: ${join(outside, "x.txt")}\n*** End Patch`;
    const refused = await invokeTool({ tool: open.byName("apply_patch")!, args: { input: patch } });
    expect(text(refused)).toContain("outside the workspace");
    const closed = build({ tools: { fs: { workspaceOnly: true } } });
    const out = await invokeTool({
      tool: closed.byName("read")!,
      args: { path: join(outside, "x.txt") },
    });
    expect(out.isError).toBe(true);
  });

  it("normalizes schemas for Gemini when the api is given", () => {
    const { byName } = build({}, { api: "google-generative-ai" });
    const params = byName("process")?.parameters as Record<string, unknown>;
    const action = (params.properties as Record<string, Record<string, unknown>>).action;
    expect(action.enum).toEqual(["list", "poll", "log", "kill", "remove"]);
    expect(action.anyOf).toBeUndefined();
  });

  it("accepts an OpenClawConfig as is", () => {
    // Compile-time check: the whole config type is assignable to the structural one the tools read.
    const asToolsConfig = (cfg: OpenClawConfig): OpenClawConfig => cfg;
    const cfg = asToolsConfig({ tools: { profile: "messaging" } });
    expect(build(cfg).tools.map((t) => t.name)).toEqual([
      "session_status",
      "sessions_list",
      "sessions_history",
      "sessions_send",
      "sessions_spawn",
    ]);
  });
});

describe("wrapTool", () => {
  const slow: AnyAgentTool = {
    name: "slow",
    label: "Slow",
    description: "never finishes on its own",
    parameters: Type.Object({}),
    execute: () => new Promise(() => {}),
  };

  it("ends a call at once with an aborted error when the run aborts, even if the tool ignores it", async () => {
    const run = new AbortController();
    const tool = wrapTool(slow, { signal: run.signal });
    const pending = invokeTool({ tool, args: {} });
    run.abort();
    expect(await pending).toEqual({
      content: [{ type: "text", text: "Tool slow was aborted." }],
      details: {},
      isError: true,
    });
    expect((await invokeTool({ tool, args: {} })).isError).toBe(true);
  });

  it("converts anything thrown into a ToolError", async () => {
    const throwing: AnyAgentTool = {
      ...slow,
      execute: () => {
        throw "plain string";
      },
    };
    const tool = wrapTool(throwing);
    await expect(tool.execute("id", {})).rejects.toBeInstanceOf(ToolError);
    expect(text(await invokeTool({ tool, args: {} }))).toBe("plain string");
  });

  it("passes the combined signal to the tool", async () => {
    const run = new AbortController();
    let seen: AbortSignal | undefined;
    const spy: AnyAgentTool = {
      ...slow,
      execute: async (_id, _args, signal) => {
        seen = signal;
        return { content: [], details: {} };
      },
    };
    await wrapTool(spy, { signal: run.signal }).execute("id", {}, new AbortController().signal);
    run.abort();
    expect(seen?.aborted).toBe(true);
  });
});

describe("in pi-agent-core's loop", () => {
  it("reports tool failures as isError results and keeps going", async () => {
    const faux = registerFauxProvider();
    cleanups.push(() => faux.unregister());
    const { tools, workspaceDir } = build({});
    writeFileSync(join(workspaceDir, "a.txt"), "dup dup\n");
    faux.setResponses([
      fauxAssistantMessage([
        fauxToolCall("edit", { path: "a.txt", oldText: "dup", newText: "x" }, { id: "c1" }),
        fauxToolCall("exec", { command: "exit 4" }, { id: "c2" }),
        fauxToolCall("read", { path: "a.txt" }, { id: "c3" }),
      ]),
      fauxAssistantMessage("done"),
    ]);
    const prompt: AgentMessage = { role: "user", content: "go", timestamp: Date.now() };
    const stream = agentLoop(
      [prompt],
      { systemPrompt: "", messages: [], tools },
      { model: faux.getModel(), convertToLlm: (messages) => messages as Message[] },
    );
    const messages = await stream.result();
    const results = messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results.map((r) => [r.toolName, r.isError])).toEqual([
      ["edit", true],
      ["exec", true],
      ["read", false],
    ]);
    expect(results[0].content[0]).toMatchObject({
      text: expect.stringContaining("occurs 2 times"),
    });
    expect(results[1].content[0]).toMatchObject({
      text: expect.stringContaining("exited with code 4"),
    });
    expect(readFileSync(join(workspaceDir, "a.txt"), "utf8")).toBe("dup dup\n");
  });
});
