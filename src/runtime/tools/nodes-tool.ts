// `nodes` (OpenClaw's tool, group:nodes): the agent's access to the gateway's node hosts — `status`
// (alias `list`) lists them, `describe` shows one, `run` runs an argv with `system.run` on a named
// node (its id, an id prefix or its display name). A run passes the host exec approvals first (the
// request names the node; allowlist mode always asks, since the gateway's allowlist cannot vouch for
// another host's binaries); the node then applies its own policy. Off unless the tool policy names it
// (`nodes` or `group:nodes` in an allow list): a node is another machine.
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { Type } from "typebox";
import type { ResolvedConfig } from "../../config/resolve.js";
import { type ExecApprovalsHost, type ExecPolicy, gateExec } from "../approvals/index.js";
import { locateAgentEntry } from "./config.js";
import { jsonResult, ToolAbortedError, ToolError, textResult } from "./types.js";

/** A host answer: the method's payload, or its error message. */
export type NodesToolAnswer = { ok: true; payload: unknown } | { ok: false; error: string };

/** What the tool needs from the gateway (its `node.*` methods). */
export interface NodesToolHost {
  call(
    method: "node.list" | "node.describe" | "node.invoke",
    params: Record<string, unknown>,
  ): Promise<NodesToolAnswer>;
}

/** The tool's context: the host, the run's agent and session, and its exec policy and approvals. */
export interface NodesToolContext {
  host: NodesToolHost;
  agentId: string;
  sessionKey: string | undefined;
  policy: ExecPolicy;
  approvals?: ExecApprovalsHost;
}

/** Whether a tool policy list names the tool explicitly (the tool is off otherwise). */
export function nodesToolEnabled(cfg: ResolvedConfig, agentId: string): boolean {
  const lists = [cfg.config.tools, cfg.defaults.tools, locateAgentEntry(cfg, agentId).entry?.tools];
  return lists.some((tools) =>
    [...(tools?.allow ?? []), ...(tools?.alsoAllow ?? [])].some((entry) =>
      ["nodes", "group:nodes"].includes(entry.trim().toLowerCase()),
    ),
  );
}

const NodesToolSchema = Type.Object({
  action: Type.Union([
    Type.Literal("status"),
    Type.Literal("list"),
    Type.Literal("describe"),
    Type.Literal("run"),
  ]),
  node: Type.Optional(Type.String({ description: "node id, id prefix or display name" })),
  command: Type.Optional(
    Type.Array(Type.String(), { description: 'argv to run, e.g. ["uname","-a"] (no shell)' }),
  ),
  cwd: Type.Optional(Type.String()),
  env: Type.Optional(Type.Record(Type.String(), Type.String())),
  commandTimeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
  invokeTimeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
});

const DESCRIPTION = `Use the gateway's node hosts (other machines paired as nodes): status (list them, with
their commands and whether they are connected), describe (node), run (node, command: argv array, cwd?,
env?, commandTimeoutMs?) runs a program on that node with system.run, subject to exec approvals.`;

interface NodeRow {
  nodeId: string;
  displayName?: string;
  connected?: boolean;
  commands?: string[];
}

async function listNodes(host: NodesToolHost): Promise<NodeRow[]> {
  const answer = await host.call("node.list", {});
  if (!answer.ok) throw new ToolError(`nodes status failed: ${answer.error}`);
  return ((answer.payload as { nodes?: NodeRow[] }).nodes ?? []) as NodeRow[];
}

/** The one node `wanted` names: exact id, display name (any case), else a unique id prefix. */
async function resolveNode(host: NodesToolHost, wanted: string | undefined): Promise<NodeRow> {
  const name = wanted?.trim();
  if (!name) throw new ToolError("this action needs node (a node id or display name)");
  const nodes = await listNodes(host);
  const lower = name.toLowerCase();
  const exact = nodes.filter(
    (n) => n.nodeId === name || n.displayName?.trim().toLowerCase() === lower,
  );
  const matches = exact.length ? exact : nodes.filter((n) => n.nodeId.startsWith(name));
  if (matches.length === 1) return matches[0]!;
  const known = nodes.map((n) => n.displayName ?? n.nodeId).join(", ") || "none";
  throw new ToolError(
    matches.length === 0
      ? `no node named "${name}" (known nodes: ${known})`
      : `"${name}" names ${matches.length} nodes; use the node id`,
  );
}

interface RunPayload {
  exitCode?: number | null;
  timedOut?: boolean;
  success?: boolean;
  stdout?: string;
  stderr?: string;
  error?: string | null;
  truncated?: boolean;
}

function runText(node: string, payload: RunPayload): { text: string; failed: boolean } {
  const out = [payload.stdout ?? "", payload.stderr ? `[stderr]\n${payload.stderr}` : ""]
    .filter((part) => part !== "")
    .join("\n");
  const cut = payload.truncated ? "\n\n(output truncated by the node)" : "";
  if (payload.error)
    return { text: `${out}${cut}\n\nFailed on node ${node}: ${payload.error}`, failed: true };
  if (payload.timedOut)
    return { text: `${out}${cut}\n\nCommand timed out on node ${node}.`, failed: true };
  if (payload.exitCode !== 0) {
    return {
      text: `${out}${cut}\n\nCommand exited with code ${payload.exitCode} on node ${node}.`,
      failed: true,
    };
  }
  return { text: `${out || "(no output)"}${cut}`, failed: false };
}

async function run(
  ctx: NodesToolContext,
  call: { params: Record<string, unknown>; signal: AbortSignal | undefined },
) {
  const { params, signal } = call;
  const argv = Array.isArray(params.command) ? (params.command as string[]) : [];
  if (argv.length === 0 || argv[0]?.trim() === "") {
    throw new ToolError('nodes run needs command: an argv array such as ["uname", "-a"]');
  }
  const node = await resolveNode(ctx.host, params.node as string | undefined);
  const name = node.displayName ?? node.nodeId;
  if (!node.connected) throw new ToolError(`node ${name} is not connected`);
  const cwd = typeof params.cwd === "string" ? params.cwd : "";
  const env = params.env as Record<string, string> | undefined;
  const verdict = await gateExec({
    policy: ctx.policy,
    ...(ctx.approvals ? { approvals: ctx.approvals } : {}),
    command: argv.join(" "),
    cwd: cwd || "(node default)",
    env: {},
    ...(env ? { extraEnv: env } : {}),
    agentId: ctx.agentId,
    ...(ctx.sessionKey ? { sessionKey: ctx.sessionKey } : {}),
    ...(signal ? { signal } : {}),
    node: { nodeId: node.nodeId, name },
  });
  if (!verdict.allowed) {
    if ("aborted" in verdict) throw new ToolAbortedError("nodes");
    throw new ToolError(verdict.message.replace(/^exec /, `nodes run on ${name} `));
  }
  const commandTimeoutMs = params.commandTimeoutMs as number | undefined;
  const answer = await ctx.host.call("node.invoke", {
    nodeId: node.nodeId,
    command: "system.run",
    params: {
      command: argv,
      ...(cwd ? { cwd } : {}),
      ...(env ? { env } : {}),
      ...(commandTimeoutMs ? { timeoutMs: commandTimeoutMs } : {}),
    },
    timeoutMs:
      (params.invokeTimeoutMs as number | undefined) ?? (commandTimeoutMs ?? 30_000) + 5_000,
    idempotencyKey: `nodes-run-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  });
  if (!answer.ok) throw new ToolError(`nodes run on ${name} failed: ${answer.error}`);
  const payload = ((answer.payload as { payload?: RunPayload }).payload ?? {}) as RunPayload;
  const result = runText(name, payload);
  const text = verdict.note ? `${verdict.note}\n${result.text}` : result.text;
  if (result.failed) throw new ToolError(text);
  return textResult(text, { nodeId: node.nodeId, exitCode: payload.exitCode ?? null });
}

/** Creates the `nodes` tool for one run. */
export function createNodesTool(ctx: NodesToolContext): AgentTool<typeof NodesToolSchema> {
  return {
    name: "nodes",
    label: "Nodes",
    description: DESCRIPTION,
    parameters: NodesToolSchema,
    async execute(_id, params, signal) {
      switch (params.action) {
        case "status":
        case "list":
          return jsonResult({ nodes: await listNodes(ctx.host) });
        case "describe": {
          const node = await resolveNode(ctx.host, params.node);
          const answer = await ctx.host.call("node.describe", { nodeId: node.nodeId });
          if (!answer.ok) throw new ToolError(`nodes describe failed: ${answer.error}`);
          return jsonResult(answer.payload);
        }
        case "run":
          return run(ctx, { params: params as Record<string, unknown>, signal });
      }
    },
  };
}
