// Exec approvals over the gateway (OpenClaw's names and scope, operator.approvals; admin covers it):
// `exec.approval.list` returns the pending requests, `exec.approval.resolve` answers one once (a
// second answer or an unknown id is INVALID_REQUEST naming why) and broadcasts
// `exec.approval.resolved` (through the queue's listener, as timeouts are).
import { ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import { type CallOf, defineMethod, fail, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";

type Deps = Pick<MethodDeps, "approvals">;
const USES = ["approvals"] as const;
const scope = "operator.approvals" as const;

function list(_call: CallOf<"exec.approval.list">, deps: Deps) {
  return ok({ approvals: deps.approvals.queue.list() });
}

function resolve(call: CallOf<"exec.approval.resolve">, deps: Deps) {
  const { id, decision } = call.params;
  const result = deps.approvals.queue.resolve({ id, decision, resolvedBy: call.client.clientId });
  if (!result.ok) return fail(gatewayError(ErrorCodes.INVALID_REQUEST, result.error));
  return ok({ ok: true, id: result.approval.id, decision });
}

/** The exec approval methods. */
export const execApprovalMethods = [
  defineMethod({ name: "exec.approval.list", scope, uses: USES, handler: list }),
  defineMethod({ name: "exec.approval.resolve", scope, uses: USES, handler: resolve }),
];
