// The gateway's side of worker tool calls (`<prefix>.host`, request/reply): a worker's `cron` and
// `nodes` tools and its exec gate ask here, and the gateway's own tool hosts and approvals answer,
// exactly as they answer its in-process runs. Only the methods host-call.ts names are served; a
// malformed call gets an error answer naming what is wrong, and so does a reply too big for the
// server's max_payload.
import type { Logger } from "../../lib/logger.js";
import type { CronToolHost } from "../../runtime/tools/cron-tool.js";
import type { NodesToolHost } from "../../runtime/tools/nodes-tool.js";
import { type HostCallReply, type HostCallRequest, parseHostCall } from "../queue/host-call.js";
import type { NatsQueue } from "../queue/nats-queue.js";
import { signalSubjects } from "../queue/settings.js";
import { ApprovalCalls, type GatewayApprovals } from "./approval-calls.js";

/** The gateway's tool hosts that worker runs reach. */
export interface GatewayToolHosts {
  cronTools: (agentId: string) => CronToolHost;
  nodeTools: NodesToolHost;
  /** Exec approvals (absent: a worker's gate is told none can be asked). */
  approvals?: GatewayApprovals;
}

/** Answers one parsed call with the gateway's hosts (and its approvals' raised requests). */
function answer(
  served: { hosts: GatewayToolHosts; approvals: ApprovalCalls | undefined },
  call: HostCallRequest,
): Promise<HostCallReply> {
  const { hosts, approvals } = served;
  switch (call.tool) {
    case "cron":
      return hosts.cronTools(call.agentId).call(call.method, call.params);
    case "cron.wake":
      return hosts
        .cronTools(call.agentId)
        .wake({ agentId: call.agentId, text: call.text, mode: call.mode });
    case "nodes":
      return hosts.nodeTools.call(call.method, call.params);
    case "approvals":
      return approvals
        ? approvals.answer(call)
        : Promise.resolve({ ok: false, error: "this gateway asks no exec approvals" });
  }
}

/** Serves worker tool calls on `queue` until the returned unsubscribe is called. */
export function serveHostCalls(params: {
  queue: NatsQueue;
  hosts: GatewayToolHosts;
  logger: Logger;
}): () => void {
  const { queue, hosts, logger } = params;
  const approvals = hosts.approvals ? new ApprovalCalls(hosts.approvals) : undefined;
  /** The answer to one call's bytes (a refusal, the host's answer, or its failure). */
  const reply = async (data: Uint8Array): Promise<HostCallReply> => {
    const parsed = parseHostCall(data);
    if (!parsed.ok) {
      logger.warn({ error: parsed.error }, "run queue: a worker's tool call was refused");
      return { ok: false, error: `refused by the gateway: ${parsed.error}` };
    }
    try {
      return await answer({ hosts, approvals }, parsed.value);
    } catch (err) {
      logger.error({ tool: parsed.value.tool, error: String(err) }, "worker tool call failed");
      return { ok: false, error: String(err) };
    }
  };
  return queue.subscribe(
    signalSubjects(queue.settings).host,
    (data, _subject, respond) => {
      if (!respond) return; // a publish, not a request: nobody waits for an answer
      void reply(data)
        .then((answered) => {
          try {
            respond(answered);
          } catch (err) {
            // Bigger than the server's max_payload: say so instead of letting the call time out.
            respond({
              ok: false,
              error: `the answer could not be sent over NATS (${String(err)})`,
            });
          }
        })
        .catch((err: unknown) =>
          logger.error({ error: String(err) }, "run queue: a worker's tool call was not answered"),
        );
    },
    logger,
  );
}
