import { describe, expect, it } from "vitest";
import { resolveRoster } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { invokeTool } from "./invoke.js";
import { createSessionsSendTool, createSessionsSpawnTool } from "./session-send-spawn.js";
import {
  createSessionStatusTool,
  createSessionsHistoryTool,
  createSessionsListTool,
  type SessionToolContext,
} from "./session-tools.js";
import type {
  SessionHistoryMessage,
  SessionSummary,
  SessionsSendParams,
  SessionsSpawnParams,
  SessionToolsHost,
} from "./session-tools-contract.js";

/** A host that records calls and answers from fixed data. */
function fakeHost(data: { sessions?: SessionSummary[]; history?: SessionHistoryMessage[] } = {}) {
  const calls = {
    send: [] as SessionsSendParams[],
    spawn: [] as SessionsSpawnParams[],
    history: 0,
  };
  const host: SessionToolsHost = {
    status: () => ({
      agentId: "home",
      sessionKey: "agent:home:main",
      sessionId: "s-1",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: { input: 1200, output: 300, cacheRead: 50, cacheWrite: 0, total: 1550, cost: 0.0123 },
      contextWindow: 200_000,
    }),
    list: (params) => (data.sessions ?? []).slice(0, params.limit),
    history: (params) => {
      calls.history++;
      return (data.history ?? []).slice(-params.limit);
    },
    send: async (params) => {
      calls.send.push(params);
      return { status: "ok", runId: "run-9", reply: "got it" };
    },
    spawn: async (params) => {
      calls.spawn.push(params);
      return {
        status: "accepted",
        childSessionKey: `agent:${params.agentId}:subagent:1`,
        runId: "run-10",
      };
    },
  };
  return { host, calls };
}

function ctx(cfg: OpenClawConfig, host: SessionToolsHost): SessionToolContext {
  return { cfg: resolveRoster(cfg), agentId: "home", host, now: () => Date.UTC(2026, 0, 2, 15, 4) };
}

function text(outcome: { content: Array<{ type: string; text?: string }> }): string {
  return outcome.content.map((block) => block.text ?? "").join("\n");
}

const A2A_ON: OpenClawConfig = {
  tools: { agentToAgent: { enabled: true, allow: ["home", "work"] } },
};
const A2A_OFF: OpenClawConfig = {
  tools: { agentToAgent: { enabled: false, allow: ["home", "work"] } },
};

describe("session_status", () => {
  it("shows the time (user time zone), session, model and usage", async () => {
    const { host } = fakeHost();
    const cfg: OpenClawConfig = { agents: { defaults: { userTimezone: "America/Santiago" } } };
    const out = await invokeTool({ tool: createSessionStatusTool(ctx(cfg, host)), args: {} });
    expect(text(out)).toBe(
      [
        "Time: Fri, 01/02/2026, 12:04 GMT-3 (2026-01-02T15:04:00.000Z)",
        "Agent: home",
        "Session: agent:home:main (id s-1)",
        "Model: anthropic/claude-sonnet-4-5",
        "Tokens: 1200 in / 300 out / 50 cache read / 0 cache write (1550 total), cost $0.0123",
        "Context window: 200000 tokens",
      ].join("\n"),
    );
  });

  it("falls back to UTC for an unknown time zone", async () => {
    const { host } = fakeHost();
    const cfg: OpenClawConfig = { agents: { defaults: { userTimezone: "Mars/Olympus" } } };
    const out = await invokeTool({ tool: createSessionStatusTool(ctx(cfg, host)), args: {} });
    expect(text(out)).toContain('UTC (unknown time zone "Mars/Olympus")');
  });
});

describe("sessions_send (agent-to-agent)", () => {
  it("refuses another agent's session while tools.agentToAgent is off (its default)", async () => {
    const { host, calls } = fakeHost();
    const tool = createSessionsSendTool(ctx(A2A_OFF, host));
    const out = await invokeTool({ tool, args: { sessionKey: "agent:work:main", message: "hi" } });
    expect(out.isError).toBe(true);
    expect(text(out)).toBe(
      'sessions_send refused: agent-to-agent access from "home" to "work" is disabled; it needs ' +
        "tools.agentToAgent.enabled: true and both agents in tools.agentToAgent.allow.",
    );
    expect(calls.send).toEqual([]);
  });

  it("refuses an agent missing from the allowlist", async () => {
    const { host, calls } = fakeHost();
    const tool = createSessionsSendTool(ctx(A2A_ON, host));
    const out = await invokeTool({ tool, args: { sessionKey: "agent:ops:main", message: "hi" } });
    expect(text(out)).toContain('"ops" not in tools.agentToAgent.allow');
    expect(calls.send).toEqual([]);
  });

  it("sends when enabled and both agents are allow-listed", async () => {
    const { host, calls } = fakeHost();
    const tool = createSessionsSendTool(ctx(A2A_ON, host));
    const out = await invokeTool({
      tool,
      args: { sessionKey: "agent:work:main", message: "status?", timeoutSeconds: 5 },
    });
    expect(out.isError).toBe(false);
    expect(out.details).toEqual({
      sessionKey: "agent:work:main",
      agentId: "work",
      status: "ok",
      runId: "run-9",
      reply: "got it",
    });
    expect(calls.send).toEqual([
      {
        fromAgentId: "home",
        agentId: "work",
        sessionKey: "agent:work:main",
        message: "status?",
        timeoutSeconds: 5,
      },
    ]);
  });

  it("always allows the agent's own sessions (a key without agent: prefix is its own)", async () => {
    const { host, calls } = fakeHost();
    const tool = createSessionsSendTool(ctx({}, host));
    const out = await invokeTool({ tool, args: { sessionKey: "telegram:group:42", message: "x" } });
    expect(out.isError).toBe(false);
    expect(calls.send[0]).toMatchObject({ agentId: "home", timeoutSeconds: 30 });
  });

  it("turns a host error into an error result", async () => {
    const { host } = fakeHost();
    host.send = async () => ({ status: "error", error: "session is busy" });
    const out = await invokeTool({
      tool: createSessionsSendTool(ctx({}, host)),
      args: { sessionKey: "agent:home:other", message: "x" },
    });
    expect(out).toMatchObject({ isError: true });
    expect(text(out)).toBe("sessions_send to agent:home:other failed: session is busy");
  });
});

describe("sessions_list and sessions_history", () => {
  const sessions: SessionSummary[] = [
    { sessionKey: "agent:home:main", agentId: "home", sessionId: "a", updatedAt: 3 },
    { sessionKey: "agent:work:main", agentId: "work", sessionId: "b", updatedAt: 2 },
  ];

  it("hides other agents' sessions without agent-to-agent access", async () => {
    const { host } = fakeHost({ sessions });
    const off = await invokeTool({ tool: createSessionsListTool(ctx({}, host)), args: {} });
    expect(off.details).toEqual({ count: 1, sessions: [sessions[0]] });
    const on = await invokeTool({ tool: createSessionsListTool(ctx(A2A_ON, host)), args: {} });
    expect(on.details).toEqual({ count: 2, sessions });
    const explicit = await invokeTool({
      tool: createSessionsListTool(ctx({}, host)),
      args: { agentId: "work" },
    });
    expect(explicit.isError).toBe(true);
  });

  it("reads another agent's history only with agent-to-agent access, capping long messages", async () => {
    const long = "z".repeat(5000);
    const { host, calls } = fakeHost({
      history: [
        { role: "user", text: "hello" },
        { role: "assistant", text: long },
      ],
    });
    const refused = await invokeTool({
      tool: createSessionsHistoryTool(ctx({}, host)),
      args: { sessionKey: "agent:work:main" },
    });
    expect(refused.isError).toBe(true);
    expect(calls.history).toBe(0);
    const out = await invokeTool({
      tool: createSessionsHistoryTool(ctx(A2A_ON, host)),
      args: { sessionKey: "agent:work:main", limit: 5 },
    });
    const details = out.details as { messages: SessionHistoryMessage[]; agentId: string };
    expect(details.agentId).toBe("work");
    expect(details.messages[0]).toEqual({ role: "user", text: "hello" });
    expect(details.messages[1].text).toHaveLength(4000 + " [… cut]".length);
  });
});

describe("sessions_spawn", () => {
  it("spawns as itself in minimal prompt mode", async () => {
    const { host, calls } = fakeHost();
    const out = await invokeTool({
      tool: createSessionsSpawnTool(ctx({}, host)),
      args: { task: "summarize the inbox", label: "inbox" },
    });
    expect(out.details).toMatchObject({
      status: "accepted",
      childSessionKey: "agent:home:subagent:1",
    });
    expect(calls.spawn[0]).toEqual({
      requesterAgentId: "home",
      agentId: "home",
      task: "summarize the inbox",
      label: "inbox",
      promptMode: "minimal",
    });
  });

  it("needs subagents.allowAgents to spawn as another agent", async () => {
    const { host, calls } = fakeHost();
    const refused = await invokeTool({
      tool: createSessionsSpawnTool(ctx({ agents: { list: [{ id: "home" }] } }, host)),
      args: { task: "t", agentId: "work" },
    });
    expect(text(refused)).toBe(
      'sessions_spawn refused: agent "home" may not spawn sub-agents as "work"; add it to agents.list[0].subagents.allowAgents.',
    );
    const cfg: OpenClawConfig = {
      agents: { list: [{ id: "home", subagents: { allowAgents: ["*"] } }] },
    };
    const ok = await invokeTool({
      tool: createSessionsSpawnTool(ctx(cfg, host)),
      args: { task: "t", agentId: "work" },
    });
    expect(ok.isError).toBe(false);
    expect(calls.spawn.map((c) => c.agentId)).toEqual(["work"]);
  });
});
