// Tool calls a worker's run makes to the gateway (core-NATS request/reply on `<prefix>.host`): the
// `cron` tool's methods and wakes, and the `nodes` tool's `node.*` methods, which only the gateway
// can serve (it owns the cron service and the node hosts' connections). The methods a request may
// name are fixed here (fail closed: anything else is refused), and every reply is a tool answer.
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
  | { tool: "nodes"; method: NodesHostMethod; params: Record<string, unknown> };

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
    default:
      return { ok: false, error: `unknown host call tool: ${String(value.tool)}` };
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
