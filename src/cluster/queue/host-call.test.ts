// Worker tool calls on the wire: what the gateway accepts (fail closed on any other tool or
// method), and the replies the worker reads.
import { describe, expect, it } from "vitest";
import { parseHostCall, parseHostReply } from "./host-call.js";
import { encode } from "./wire.js";

const bytes = (value: unknown) => encode(value);

describe("host calls", () => {
  it("parses the cron, cron wake and nodes calls the tools make", () => {
    const cron = { tool: "cron", agentId: "main", method: "cron.add", params: { name: "x" } };
    expect(parseHostCall(bytes(cron))).toEqual({ ok: true, value: cron });
    const wake = { tool: "cron.wake", agentId: "main", text: "hi", mode: "now" };
    expect(parseHostCall(bytes(wake))).toEqual({ ok: true, value: wake });
    const nodes = { tool: "nodes", method: "node.invoke", params: { nodeId: "n1" } };
    expect(parseHostCall(bytes(nodes))).toEqual({ ok: true, value: nodes });
  });

  it("parses the exec gate's approvals calls, keeping only a request's known fields", () => {
    const request = {
      command: "uname -s",
      cwd: "/tmp",
      agentId: "main",
      sessionKey: "agent:main:x",
      security: "allowlist",
      ask: "on-miss",
      resolvedPaths: ["/usr/bin/uname"],
      reason: "uname is not on the allowlist",
    };
    const ask = { tool: "approvals", method: "ask", request: { ...request, extra: "dropped" } };
    expect(parseHostCall(bytes(ask))).toEqual({
      ok: true,
      value: { tool: "approvals", method: "ask", request },
    });
    const onNode = { ...request, host: "node", nodeId: "n1", nodeName: "build" };
    expect(parseHostCall(bytes({ ...ask, request: onNode }))).toMatchObject({
      ok: true,
      value: { request: { host: "node", nodeId: "n1", nodeName: "build" } },
    });
    for (const call of [
      { tool: "approvals", method: "patterns", agentId: "main" },
      { tool: "approvals", method: "add", agentId: "main", patterns: ["/bin/x"], command: "x" },
      { tool: "approvals", method: "wait", id: "a1" },
      { tool: "approvals", method: "withdraw", id: "a1" },
    ])
      expect(parseHostCall(bytes(call))).toEqual({ ok: true, value: call });
  });

  it("refuses malformed approvals calls, naming what is wrong", () => {
    const refused = (value: unknown) => {
      const parsed = parseHostCall(bytes({ tool: "approvals", ...(value as object) }));
      return parsed.ok ? "accepted" : parsed.error;
    };
    const request = { command: "x", cwd: "/", agentId: "main", reason: "r", ask: "on-miss" };
    expect(refused({ method: "resolve", id: "a1" })).toMatch(/not an approvals method: resolve/);
    expect(refused({ method: "ask", request: { ...request, security: "none" } })).toMatch(
      /security none/,
    );
    expect(
      refused({ method: "ask", request: { ...request, security: "full", host: "node" } }),
    ).toMatch(/host must be node, with nodeId and nodeName/);
    expect(refused({ method: "add", agentId: "main", patterns: [1], command: "x" })).toMatch(
      /patterns \(strings\)/,
    );
    expect(refused({ method: "wait" })).toMatch(/approvals wait without an id/);
    expect(refused({ method: "patterns" })).toMatch(/without agentId/);
  });

  it("refuses other tools and methods, and malformed calls, naming what is wrong", () => {
    const refused = (value: unknown) => {
      const parsed = parseHostCall(bytes(value));
      return parsed.ok ? "accepted" : parsed.error;
    };
    expect(refused({ tool: "exec", method: "x", params: {} })).toMatch(
      /unknown host call tool: exec/,
    );
    expect(refused({ tool: "cron", agentId: "main", method: "config.apply", params: {} })).toMatch(
      /not a cron tool method: config.apply/,
    );
    expect(refused({ tool: "nodes", method: "node.pair.approve", params: {} })).toMatch(
      /not a nodes tool method/,
    );
    expect(refused({ tool: "cron", method: "cron.list", params: {} })).toMatch(/without agentId/);
    expect(refused({ tool: "nodes", method: "node.list", params: [] })).toMatch(/params object/);
    expect(refused({ tool: "cron.wake", agentId: "main", text: "t", mode: "later" })).toMatch(
      /mode must be now or next-heartbeat/,
    );
    expect(parseHostCall(new TextEncoder().encode("{oops"))).toMatchObject({ ok: false });
  });

  it("reads the gateway's replies; anything else is an error answer", () => {
    expect(parseHostReply(bytes({ ok: true, payload: { jobs: [] } }))).toEqual({
      ok: true,
      payload: { jobs: [] },
    });
    expect(parseHostReply(bytes({ ok: false, error: "no such job" }))).toEqual({
      ok: false,
      error: "no such job",
    });
    expect(parseHostReply(bytes({ ok: "maybe" }))).toEqual({
      ok: false,
      error: "the gateway's reply is not a tool answer",
    });
    expect(parseHostReply(new TextEncoder().encode("[]"))).toMatchObject({ ok: false });
  });
});
