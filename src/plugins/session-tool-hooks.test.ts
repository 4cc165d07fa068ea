import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closeWhenDone, makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { silentLogger } from "../lib/logger.js";
import type { AnyAgentTool } from "../runtime/tools/types.js";
import { acquireStateDirLock, openSessionStore } from "../sessions/index.js";
import { createHookRunner } from "./hook-runner.js";
import type { PluginHookName, PluginHookRegistration } from "./hook-types.js";
import { sessionLifecycleListener } from "./session-hooks.js";
import { withToolHooks } from "./tool-hooks.js";

function runnerWith(hooks: Array<[PluginHookName, (event: never) => unknown]>) {
  const registrations: PluginHookRegistration[] = hooks.map(([hookName, handler], order) => ({
    pluginId: "p",
    hookName,
    handler: handler as unknown as PluginHookRegistration["handler"],
    priority: 0,
    order,
  }));
  return createHookRunner({ hooks: registrations, logger: silentLogger });
}

describe("session and tool hooks", () => {
  it("tells session_start / session_end of a store's new, reset and deleted sessions", async () => {
    const seen: string[] = [];
    const runner = runnerWith([
      [
        "session_start",
        (e: { sessionKey: string; resumedFrom?: string }) =>
          seen.push(`start ${e.sessionKey} ${e.resumedFrom ?? "-"}`),
      ],
      [
        "session_end",
        (e: { sessionKey: string; reason: string }) => seen.push(`end ${e.sessionKey} ${e.reason}`),
      ],
    ]);
    const stateDir = makeTempDir("pincer-plugin-sessions-");
    const sessionsDir = join(stateDir, "agents", "main", "sessions");
    mkdirSync(sessionsDir, { recursive: true });
    let n = 0;
    const store = closeWhenDone(
      openSessionStore({
        storePath: join(sessionsDir, "sessions.json"),
        lock: acquireStateDirLock({ stateDir }),
        ids: { sessionId: () => `s${++n}`, entryId: () => `e${++n}` },
        scheduler: { setTimeout: () => 0, clearTimeout: () => {} },
        ...(() => {
          const onLifecycle = sessionLifecycleListener(runner);
          return onLifecycle ? { onLifecycle } : {};
        })(),
      }),
    );
    const key = "agent:main:main";
    store.getOrCreate(key);
    store.getOrCreate(key);
    store.reset(key);
    store.delete(key);
    await Promise.resolve();
    expect(seen).toEqual([
      `start ${key} -`,
      `end ${key} reset`,
      `start ${key} s1`,
      `end ${key} deleted`,
    ]);
    expect(sessionLifecycleListener(runnerWith([]))).toBeUndefined();
  });

  it("withToolHooks: a block never runs the tool; params are rewritten; after_tool_call sees the result", async () => {
    const ran: unknown[] = [];
    const after: unknown[] = [];
    const tool: AnyAgentTool = {
      name: "exec",
      label: "exec",
      description: "d",
      parameters: { type: "object" } as never,
      execute: async (_id, params) => {
        ran.push(params);
        return { content: [{ type: "text", text: "ok" }], details: {} };
      },
    };
    const runner = runnerWith([
      [
        "before_tool_call",
        (e: { params: { command: string } }) =>
          e.params.command === "rm"
            ? { block: true, blockReason: "nope" }
            : { params: { command: "ls -l" } },
      ],
      [
        "after_tool_call",
        (e: { result?: unknown; params: unknown }) => after.push([e.params, e.result]),
      ],
    ]);
    const [wrapped] = withToolHooks([tool], runner, { agentId: "main", now: () => 0 });
    await expect(wrapped?.execute("c1", { command: "rm" })).rejects.toThrow(
      "Tool call blocked by plugin p: nope",
    );
    expect(ran).toEqual([]);
    const result = await wrapped?.execute("c2", { command: "ls" });
    expect(ran).toEqual([{ command: "ls -l" }]);
    await Promise.resolve();
    expect(after).toEqual([[{ command: "ls -l" }, result]]);
    expect(withToolHooks([tool], runnerWith([]), { now: () => 0 })[0]).toBe(tool);
  });
});
