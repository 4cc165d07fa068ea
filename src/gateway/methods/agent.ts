// `agent` (ack, then the final on the same request id; idempotencyKey = runId, deduped) and
// `agent.wait` (never cancels the run). The turn is journaled before the ack: after a crash it is
// resumed, and a retry of its key gets the stored outcome (turn-journal-run.ts).
import type { AgentParams } from "../../protocol/gateway/index.js";
import { ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import { fail, type MethodCall, type MethodHandler, ok } from "../context.js";
import { answerDuplicate, turnKey } from "../idempotency.js";
import { startJournaledTurn } from "../runs/turn-journal-run.js";
import { resolveTarget } from "./shared.js";

const DEFAULT_WAIT_MS = 30_000;

async function agent(call: MethodCall<AgentParams>) {
  const { core, params } = call;
  const dedupeKey = turnKey("agent", params.idempotencyKey);
  const duplicate = answerDuplicate(core.dedupe, dedupeKey);
  if (duplicate) return duplicate;
  const target = resolveTarget(core.live.resolved, params);
  if ("error" in target) return target.error;
  const runId = params.idempotencyKey;
  const info = { runId, sessionKey: target.sessionKey, agentId: target.agentId };
  const started = await startJournaledTurn(core, {
    key: dedupeKey,
    info,
    turn: {
      kind: "agent",
      ...info,
      message: params.message,
      // 0 = no timeout for this call (as `timeoutSeconds: 0` in the config); absent = the agent's.
      ...(params.timeout !== undefined ? { timeoutSeconds: params.timeout } : {}),
      acceptedAt: core.now(),
    },
  });
  if (!started.ok) return started.error;
  call.ack({ ...info, status: "accepted", acceptedAt: started.turn.run.acceptedAt });
  const final = await started.turn.settled;
  if (final) return ok(final);
  return fail(
    gatewayError(
      ErrorCodes.UNAVAILABLE,
      "gateway restarting: the turn resumes after the restart; retry with the same idempotencyKey",
      { retryable: true },
    ),
  );
}

/** The agent method group. */
export const agentMethods: Record<string, MethodHandler> = {
  agent,
  "agent.wait": async (call: MethodCall<{ runId: string; timeoutMs?: number }>) =>
    ok(await call.core.runs.wait(call.params.runId, call.params.timeoutMs ?? DEFAULT_WAIT_MS)),
};
