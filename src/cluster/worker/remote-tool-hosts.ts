// The `cron` and `nodes` tools of a worker's runs: their calls go to the gateway over the run
// queue's NATS connection (`<prefix>.host`, request/reply; src/cluster/dispatch/host-calls.ts
// answers), since the gateway owns the cron service and the node hosts' connections. A call that
// gets no answer (no gateway, NATS down, too slow) is an error answer the tool reports to the model.
import type {
  CronToolAnswer,
  CronToolHost,
  CronToolMethod,
} from "../../runtime/tools/cron-tool.js";
import type { NodesToolHost } from "../../runtime/tools/nodes-tool.js";
import { type HostCallReply, type HostCallRequest, parseHostReply } from "../queue/host-call.js";
import type { NatsQueue, RequestOutcome } from "../queue/nats-queue.js";
import { signalSubjects } from "../queue/settings.js";

/** How long a cron call, or a node lookup, may wait for the gateway's answer. */
export const HOST_CALL_TIMEOUT_MS = 30_000;

/** Added to a `node.invoke`'s own timeout: the gateway answers only after the node did. */
const INVOKE_MARGIN_MS = 10_000;

/** The tool hosts a worker's runs are given. */
export interface RemoteToolHosts {
  cronTools: (agentId: string) => CronToolHost;
  nodeTools: NodesToolHost;
}

/** Why a request got no answer, in words for the model and the operator. */
function describeFailure(
  outcome: Exclude<RequestOutcome, { ok: true }>,
  timeoutMs: number,
): string {
  switch (outcome.reason) {
    case "no-responders":
      return "no gateway answers tool calls on the run queue (is this cluster's gateway running?)";
    case "timeout":
      return `the gateway did not answer within ${Math.round(timeoutMs / 1000)} s`;
    case "error":
      return `the call could not reach the gateway: ${outcome.error}`;
  }
}

/** One host call to the gateway; every failure is an error answer (never a throw). */
export type HostCaller = (request: HostCallRequest, timeoutMs: number) => Promise<HostCallReply>;

/** Host calls over `queue()` (the worker's connection, once open). */
export function hostCaller(queue: () => NatsQueue | undefined): HostCaller {
  return async (request, timeoutMs) => {
    const open = queue();
    if (!open) return { ok: false, error: "the worker is not connected to the run queue" };
    const outcome = await open.request(signalSubjects(open.settings).host, request, timeoutMs);
    return outcome.ok
      ? parseHostReply(outcome.data)
      : { ok: false, error: describeFailure(outcome, timeoutMs) };
  };
}

/** The tool hosts over `queue()` (the worker's connection, once open). */
export function remoteToolHosts(params: { queue: () => NatsQueue | undefined }): RemoteToolHosts {
  const call = hostCaller(params.queue);
  return {
    cronTools: (agentId) => ({
      call: (method: CronToolMethod, callParams): Promise<CronToolAnswer> =>
        call({ tool: "cron", agentId, method, params: callParams }, HOST_CALL_TIMEOUT_MS),
      wake: ({ agentId: target, text, mode }) =>
        call({ tool: "cron.wake", agentId: target, text, mode }, HOST_CALL_TIMEOUT_MS),
    }),
    nodeTools: {
      call: (method, callParams) => {
        const own = callParams.timeoutMs;
        const timeoutMs =
          method === "node.invoke" && typeof own === "number" && own > 0
            ? own + INVOKE_MARGIN_MS
            : HOST_CALL_TIMEOUT_MS + (method === "node.invoke" ? INVOKE_MARGIN_MS : 0);
        return call({ tool: "nodes", method, params: callParams }, timeoutMs);
      },
    },
  };
}
