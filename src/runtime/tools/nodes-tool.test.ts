// The nodes tool is off unless a tool policy names it; a run resolves the node by name and asks
// an approval naming it (allowlist mode always asks: this host's allowlist cannot vouch for it).
import { describe, expect, it } from "vitest";
import { resolveRoster } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { ExecApprovalQueue } from "../approvals/index.js";
import { createNodesTool, type NodesToolHost, nodesToolEnabled } from "./nodes-tool.js";

const enabled = (cfg: OpenClawConfig, agentId = "main") =>
  nodesToolEnabled(resolveRoster(cfg), agentId);

describe("nodesToolEnabled", () => {
  it("is off by default and on when an allow list names nodes or group:nodes", () => {
    expect(enabled({})).toBe(false);
    expect(enabled({ tools: { profile: "full" } })).toBe(false);
    expect(enabled({ tools: { alsoAllow: ["nodes"] } })).toBe(true);
    expect(enabled({ agents: { list: [{ id: "main", tools: { allow: ["group:nodes"] } }] } })).toBe(
      true,
    );
    expect(
      enabled({ agents: { list: [{ id: "main", tools: { allow: ["group:nodes"] } }] } }, "other"),
    ).toBe(false);
  });
});

describe("nodes run", () => {
  it("asks an approval that names the node, and a denial runs nothing", async () => {
    const calls: string[] = [];
    const host: NodesToolHost = {
      call: async (method) => {
        calls.push(method);
        return method === "node.list"
          ? {
              ok: true,
              payload: { nodes: [{ nodeId: "abc123", displayName: "Build Box", connected: true }] },
            }
          : { ok: true, payload: { payload: { exitCode: 0, stdout: "ran\n" } } };
      },
    };
    const requests: unknown[] = [];
    const queue: ExecApprovalQueue = new ExecApprovalQueue({
      timeoutMs: 60_000,
      listener: {
        requested: (approval) => {
          requests.push(approval.request);
          queueMicrotask(() =>
            queue.resolve({ id: approval.id, decision: "deny", resolvedBy: "test" }),
          );
        },
        resolved: () => {},
      },
    });
    const tool = createNodesTool({
      host,
      agentId: "main",
      sessionKey: "agent:main:main",
      policy: { security: "allowlist", ask: "on-miss", safeBins: [] },
      approvals: { queue },
    });
    await expect(
      tool.execute("t1", { action: "run", node: "build box", command: ["uname"] }),
    ).rejects.toThrow(/nodes run on Build Box was denied by the user/);
    expect(requests).toEqual([
      expect.objectContaining({
        host: "node",
        nodeId: "abc123",
        nodeName: "Build Box",
        command: "uname",
      }),
    ]);
    expect(calls).toEqual(["node.list"]);
  });
});
