// `agent` (ack, then the final on the same request id; idempotencyKey = runId, deduped) and
// `agent.wait` (never cancels the run). The turn is journaled before the ack: after a crash it is
// resumed, and a retry of its key gets the stored outcome (turn-journal-run.ts).
import { ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import { answerDuplicate, turnKey } from "../idempotency.js";
import { parseAttachments } from "./attachments.js";
import { type CallOf, defineMethod, fail, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";
import { invalid, resolveTarget } from "./shared.js";

const DEFAULT_WAIT_MS = 30_000;

async function agent(
  call: CallOf<"agent">,
  deps: Pick<MethodDeps, "dedupe" | "config" | "startTurn" | "now">,
) {
  const { params } = call;
  const attached = parseAttachments(params.attachments);
  if (!attached.ok) return invalid(`invalid agent params: ${attached.message}`);
  const dedupeKey = turnKey("agent", params.idempotencyKey);
  const duplicate = answerDuplicate(deps.dedupe, dedupeKey);
  if (duplicate) return duplicate;
  const target = resolveTarget(deps.config(), params);
  if ("error" in target) return target.error;
  const runId = params.idempotencyKey;
  const info = { runId, sessionKey: target.sessionKey, agentId: target.agentId };
  const started = await deps.startTurn({
    key: dedupeKey,
    info,
    turn: {
      kind: "agent",
      ...info,
      message: params.message,
      ...(attached.images.length ? { images: attached.images } : {}),
      // 0 = no timeout for this call (as `timeoutSeconds: 0` in the config); absent = the agent's.
      ...(params.timeout !== undefined ? { timeoutSeconds: params.timeout } : {}),
      acceptedAt: deps.now(),
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
export const agentMethods = [
  defineMethod({
    name: "agent",
    scope: "operator.write",
    uses: ["dedupe", "config", "startTurn", "now"],
    handler: agent,
  }),
  defineMethod({
    name: "agent.wait",
    scope: "operator.write",
    uses: ["runs"],
    handler: async ({ params }, { runs }) =>
      ok(await runs.wait(params.runId, params.timeoutMs ?? DEFAULT_WAIT_MS)),
  }),
];
