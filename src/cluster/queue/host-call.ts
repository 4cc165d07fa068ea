// Tool calls a worker's run makes to the gateway (core-NATS request/reply on `<prefix>.host`): the
// `cron` tool's methods and wakes, the `nodes` tool's `node.*` methods, and the exec gate's
// approvals (the allowlist, "allow always", raising a request and waiting for its answer), which
// only the gateway can serve (it owns the cron service, the node hosts' connections, the pending
// approvals its operators answer and the approvals file). The methods a request may
// name are fixed here (fail closed: anything else is refused), and every reply is a tool answer.
import {
  EXEC_ASK_MODES,
  EXEC_SECURITY_MODES,
  type ExecApprovalRequest,
} from "../../runtime/approvals/index.js";
import type { CronToolMethod } from "../../runtime/tools/cron-tool.js";
import { type Parsed, parseObject } from "./wire.js";

/** The `cron` tool's methods a worker may call. */
export const CRON_HOST_METHODS: readonly CronToolMethod[] = [
  "cron.status",
  "cron.list",
  "cron.add",
  "cron.update",
  "cron.remove",
  "cron.run",
  "cron.runs",
];

/** The `nodes` tool's methods a worker may call. */
export const NODES_HOST_METHODS = ["node.list", "node.describe", "node.invoke"] as const;

/** A `node.*` method the nodes tool calls. */
export type NodesHostMethod = (typeof NODES_HOST_METHODS)[number];

/** One call of a worker's tool to the gateway. */
export type HostCallRequest =
  | { tool: "cron"; agentId: string; method: CronToolMethod; params: Record<string, unknown> }
  | { tool: "cron.wake"; agentId: string; text: string; mode: "now" | "next-heartbeat" }
  | { tool: "nodes"; method: NodesHostMethod; params: Record<string, unknown> }
  | ApprovalsHostCall;

/** The exec gate's calls: read an agent's allowlist, extend it ("allow always"), raise a request
 *  (answered at once with its id), wait for a request's end, withdraw one (its run was aborted). */
export type ApprovalsHostCall =
  | { tool: "approvals"; method: "patterns"; agentId: string }
  | { tool: "approvals"; method: "add"; agentId: string; patterns: string[]; command: string }
  | { tool: "approvals"; method: "ask"; request: ExecApprovalRequest }
  | { tool: "approvals"; method: "wait" | "withdraw"; id: string };

/** The gateway's answer: the tool answer shape both tools take. */
export type HostCallReply = { ok: true; payload: unknown } | { ok: false; error: string };

function isParams(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A host call from a worker; a malformed or unknown one is an error naming what is wrong. */
export function parseHostCall(data: Uint8Array): Parsed<HostCallRequest> {
  const parsed = parseObject(data);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  switch (value.tool) {
    case "cron": {
      if (typeof value.agentId !== "string")
        return { ok: false, error: "cron call without agentId" };
      const method = CRON_HOST_METHODS.find((name) => name === value.method);
      if (!method) return { ok: false, error: `not a cron tool method: ${String(value.method)}` };
      if (!isParams(value.params)) return { ok: false, error: "cron call without params object" };
      return {
        ok: true,
        value: { tool: "cron", agentId: value.agentId, method, params: value.params },
      };
    }
    case "cron.wake": {
      const { agentId, text, mode } = value;
      if (typeof agentId !== "string" || typeof text !== "string")
        return { ok: false, error: "cron wake without agentId or text" };
      if (mode !== "now" && mode !== "next-heartbeat")
        return {
          ok: false,
          error: `cron wake mode must be now or next-heartbeat, not ${String(mode)}`,
        };
      return { ok: true, value: { tool: "cron.wake", agentId, text, mode } };
    }
    case "nodes": {
      const method = NODES_HOST_METHODS.find((name) => name === value.method);
      if (!method) return { ok: false, error: `not a nodes tool method: ${String(value.method)}` };
      if (!isParams(value.params)) return { ok: false, error: "nodes call without params object" };
      return { ok: true, value: { tool: "nodes", method, params: value.params } };
    }
    case "approvals":
      return parseApprovalsCall(value);
    default:
      return { ok: false, error: `unknown host call tool: ${String(value.tool)}` };
  }
}

/** True for an array of strings (allowlist patterns on the wire). */
export const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

function parseApprovalRequest(value: unknown): Parsed<ExecApprovalRequest> {
  if (!isParams(value)) return { ok: false, error: "approval ask without a request object" };
  const { command, cwd, agentId, sessionKey, security, ask, resolvedPaths, reason } = value;
  if (typeof command !== "string" || typeof cwd !== "string" || typeof agentId !== "string")
    return { ok: false, error: "approval request without command, cwd or agentId" };
  if (typeof reason !== "string") return { ok: false, error: "approval request without reason" };
  const mode = EXEC_SECURITY_MODES.find((name) => name === security);
  const asks = EXEC_ASK_MODES.find((name) => name === ask);
  if (!mode || !asks)
    return {
      ok: false,
      error: `approval request with security ${String(security)}, ask ${String(ask)}`,
    };
  if (sessionKey !== undefined && typeof sessionKey !== "string")
    return { ok: false, error: "approval request sessionKey must be a string" };
  if (resolvedPaths !== undefined && !isStrings(resolvedPaths))
    return { ok: false, error: "approval request resolvedPaths must be strings" };
  const { host, nodeId, nodeName } = value;
  const onNode = host === "node" && typeof nodeId === "string" && typeof nodeName === "string";
  if (host !== undefined && !onNode)
    return { ok: false, error: "approval request host must be node, with nodeId and nodeName" };
  return {
    ok: true,
    value: {
      ...{ command, cwd, agentId, security: mode, ask: asks, reason },
      ...(sessionKey !== undefined ? { sessionKey } : {}),
      ...(resolvedPaths !== undefined ? { resolvedPaths } : {}),
      ...(onNode ? { host: "node" as const, nodeId, nodeName } : {}),
    },
  };
}

function parseApprovalsCall(value: Record<string, unknown>): Parsed<ApprovalsHostCall> {
  const tool = "approvals" as const;
  switch (value.method) {
    case "patterns":
      if (typeof value.agentId !== "string")
        return { ok: false, error: "approvals patterns without agentId" };
      return { ok: true, value: { tool, method: "patterns", agentId: value.agentId } };
    case "add": {
      const { agentId, patterns, command } = value;
      if (typeof agentId !== "string" || typeof command !== "string" || !isStrings(patterns))
        return { ok: false, error: "approvals add needs agentId, patterns (strings) and command" };
      return { ok: true, value: { tool, method: "add", agentId, patterns, command } };
    }
    case "ask": {
      const request = parseApprovalRequest(value.request);
      return request.ok
        ? { ok: true, value: { tool, method: "ask", request: request.value } }
        : request;
    }
    case "wait":
    case "withdraw":
      if (typeof value.id !== "string" || value.id === "")
        return { ok: false, error: `approvals ${value.method} without an id` };
      return { ok: true, value: { tool, method: value.method, id: value.id } };
    default:
      return { ok: false, error: `not an approvals method: ${String(value.method)}` };
  }
}

/** The gateway's reply to a host call; anything else is an error answer naming what came back. */
export function parseHostReply(data: Uint8Array): HostCallReply {
  const parsed = parseObject(data);
  if (!parsed.ok) return { ok: false, error: `the gateway's reply is ${parsed.error}` };
  const value = parsed.value;
  if (value.ok === true) return { ok: true, payload: value.payload };
  if (value.ok === false && typeof value.error === "string")
    return { ok: false, error: value.error };
  return { ok: false, error: "the gateway's reply is not a tool answer" };
}
