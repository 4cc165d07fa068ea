import { describe, expect, it } from "vitest";
import { createEntryLogger, type LogEntry } from "../lib/logger.js";
import { createHookRunner } from "./hook-runner.js";
import type { PluginHookName, PluginHookRegistration } from "./hook-types.js";

interface HookSpec {
  pluginId: string;
  hookName: PluginHookName;
  handler: (event: never, ctx: never) => unknown;
  priority?: number;
  timeoutMs?: number;
}

function runnerOf(specs: HookSpec[], options: { noPromptInjection?: string[] } = {}) {
  const lines: LogEntry[] = [];
  const hooks: PluginHookRegistration[] = specs.map((spec, order) => ({
    pluginId: spec.pluginId,
    hookName: spec.hookName,
    handler: spec.handler as PluginHookRegistration["handler"],
    priority: spec.priority ?? 0,
    ...(spec.timeoutMs ? { timeoutMs: spec.timeoutMs } : {}),
    order,
  }));
  const runner = createHookRunner({
    hooks,
    logger: createEntryLogger((entry) => lines.push(entry)),
    noPromptInjection: new Set(options.noPromptInjection ?? []),
  });
  return { runner, lines };
}

const ctx = { agentId: "main", sessionKey: "agent:main:main" };
const toolCtx = { ...ctx, toolName: "exec" };
const msgCtx = { channelId: "telegram", accountId: "default", conversationId: "42" };

describe("plugin hook runner", () => {
  it("runs handlers by priority, higher first, ties in registration order", async () => {
    const calls: string[] = [];
    const note = (name: string) => () => {
      calls.push(name);
    };
    const { runner } = runnerOf([
      { pluginId: "low", hookName: "session_start", handler: note("low") },
      { pluginId: "high-a", hookName: "message_sending", handler: note("high-a"), priority: 10 },
      { pluginId: "high-b", hookName: "message_sending", handler: note("high-b"), priority: 10 },
      { pluginId: "mid", hookName: "message_sending", handler: note("mid"), priority: 5 },
      { pluginId: "zero", hookName: "message_sending", handler: note("zero") },
    ]);
    await runner.messageSending({ to: "42", content: "hi" }, msgCtx);
    expect(calls).toEqual(["high-a", "high-b", "mid", "zero"]);
    expect(runner.has("message_sending")).toBe(true);
    expect(runner.has("message_sent")).toBe(false);
  });

  it("skips a handler that throws or runs out of time, logging its plugin id, and keeps the rest", async () => {
    const { runner, lines } = runnerOf([
      {
        pluginId: "thrower",
        hookName: "message_sending",
        priority: 3,
        handler: () => {
          throw new Error("boom");
        },
      },
      {
        pluginId: "sleeper",
        hookName: "message_sending",
        priority: 2,
        timeoutMs: 20,
        handler: () => new Promise(() => {}),
      },
      {
        pluginId: "rewriter",
        hookName: "message_sending",
        priority: 1,
        handler: (event: { content: string }) => ({ content: `${event.content}!` }),
      },
    ]);
    const decision = await runner.messageSending({ to: "42", content: "hi" }, msgCtx);
    expect(decision).toEqual({ cancel: false, content: "hi!" });
    const failed = lines.filter((line) => line.msg.startsWith("plugin hook failed"));
    expect(failed.map((line) => [line.fields.plugin, line.fields.hook])).toEqual([
      ["thrower", "message_sending"],
      ["sleeper", "message_sending"],
    ]);
    expect(String(failed[1]?.fields.error)).toMatch(/timed out after 20 ms/);
  });

  it("message_sending: cancel is terminal; rewrites pass down to later handlers", async () => {
    const seen: string[] = [];
    const { runner } = runnerOf([
      {
        pluginId: "a",
        hookName: "message_sending",
        priority: 3,
        handler: () => ({ content: "B" }),
      },
      {
        pluginId: "b",
        hookName: "message_sending",
        priority: 2,
        handler: (event: { content: string }) => {
          seen.push(event.content);
          return { cancel: true };
        },
      },
      {
        pluginId: "c",
        hookName: "message_sending",
        priority: 1,
        handler: () => {
          seen.push("c ran");
        },
      },
    ]);
    expect(await runner.messageSending({ to: "42", content: "A" }, msgCtx)).toEqual({
      cancel: true,
      pluginId: "b",
    });
    expect(seen).toEqual(["B"]);
  });

  it("before_tool_call: a block is terminal and names the plugin; params rewrites chain", async () => {
    const later: unknown[] = [];
    const { runner } = runnerOf([
      {
        pluginId: "rewrite",
        hookName: "before_tool_call",
        priority: 2,
        handler: () => ({ params: { command: "echo safe" } }),
      },
      {
        pluginId: "guard",
        hookName: "before_tool_call",
        priority: 1,
        handler: (event: { params: { command: string } }) =>
          event.params.command.includes("rm") ? { block: true, blockReason: "no rm" } : undefined,
      },
      {
        pluginId: "last",
        hookName: "before_tool_call",
        handler: (event: { params: unknown }) => {
          later.push(event.params);
        },
      },
    ]);
    const allowed = await runner.beforeToolCall(
      { toolName: "exec", params: { command: "rm -rf /" } },
      toolCtx,
    );
    expect(allowed).toEqual({ blocked: false, params: { command: "echo safe" } });
    expect(later).toEqual([{ command: "echo safe" }]);

    const { runner: blocking } = runnerOf([
      { pluginId: "guard", hookName: "before_tool_call", handler: () => ({ block: true }) },
      { pluginId: "never", hookName: "before_tool_call", handler: () => later.push("never") },
    ]);
    expect(await blocking.beforeToolCall({ toolName: "exec", params: {} }, toolCtx)).toEqual({
      blocked: true,
      pluginId: "guard",
      reason: "blocked by a plugin hook",
    });
    expect(later).not.toContain("never");
  });

  it("before_tool_call fails closed: a throwing or timed-out handler blocks the call", async () => {
    const { runner } = runnerOf([
      {
        pluginId: "slow",
        hookName: "before_tool_call",
        timeoutMs: 20,
        handler: () => new Promise(() => {}),
      },
    ]);
    const decision = await runner.beforeToolCall({ toolName: "exec", params: {} }, toolCtx);
    expect(decision).toMatchObject({ blocked: true, pluginId: "slow" });
    expect(decision.blocked && decision.reason).toMatch(/hook failed \(timed out after 20 ms\)/);
  });

  it("merges prompt results: first systemPrompt wins, contexts concatenate in priority order", async () => {
    const { runner } = runnerOf(
      [
        {
          pluginId: "one",
          hookName: "before_prompt_build",
          priority: 2,
          handler: () => ({ systemPrompt: "S1", prependContext: "P1", appendSystemContext: "A1" }),
        },
        {
          pluginId: "two",
          hookName: "before_prompt_build",
          priority: 1,
          handler: () => ({ systemPrompt: "S2", prependContext: "P2" }),
        },
        {
          pluginId: "legacy",
          hookName: "before_agent_start",
          handler: () => ({ prependContext: "P3", modelOverride: "openai/gpt-x" }),
        },
        {
          pluginId: "muted",
          hookName: "before_prompt_build",
          handler: () => ({ prependContext: "M" }),
        },
      ],
      { noPromptInjection: ["muted"] },
    );
    const legacy = await runner.agentStart({ prompt: "hi", messages: [] }, ctx);
    expect(await runner.buildPrompt({ prompt: "hi", messages: [] }, ctx, legacy)).toEqual({
      systemPrompt: "S1",
      prependContext: "P1\n\nP2\n\nP3",
      appendSystemContext: "A1",
    });
    expect(await runner.resolveModel({ prompt: "hi" }, ctx, legacy)).toEqual({
      modelOverride: "openai/gpt-x",
    });
  });

  it("tool_result_persist is synchronous: a rewrite applies, a returned promise is ignored", () => {
    const { runner, lines } = runnerOf([
      {
        pluginId: "async",
        hookName: "tool_result_persist",
        priority: 2,
        handler: async () => ({ message: { role: "toolResult", content: "async" } }),
      },
      {
        pluginId: "redact",
        hookName: "tool_result_persist",
        handler: (event: { message: Record<string, unknown> }) => ({
          message: { ...event.message, content: "[redacted]" },
        }),
      },
    ]);
    const message = runner.persistToolResult(
      { toolName: "exec", message: { role: "toolResult", content: "secret" } },
      toolCtx,
    );
    expect(message).toEqual({ role: "toolResult", content: "[redacted]" });
    expect(lines.some((line) => line.fields.plugin === "async")).toBe(true);
  });

  it("observing hooks all run even when one fails", async () => {
    const seen: string[] = [];
    const { runner } = runnerOf([
      {
        pluginId: "bad",
        hookName: "agent_end",
        handler: () => {
          throw new Error("x");
        },
      },
      {
        pluginId: "good",
        hookName: "agent_end",
        handler: (event: { success: boolean }) => {
          seen.push(`success=${event.success}`);
        },
      },
    ]);
    await runner.observe("agent_end", { messages: [], success: true }, ctx);
    expect(seen).toEqual(["success=true"]);
  });
});
