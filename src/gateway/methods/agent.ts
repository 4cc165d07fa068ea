// `agent` (ack, then the final on the same request id; idempotencyKey = runId, deduped) and
// `agent.wait` (never cancels the run).
import type { AgentParams } from "../../protocol/gateway/index.js";
import type { RunResult } from "../../runtime/run/index.js";
import { type MethodCall, type MethodHandler, ok } from "../context.js";
import { resolveTarget } from "./shared.js";

const DEFAULT_WAIT_MS = 30_000;

function finalPayload(runId: string, result: RunResult, sessionId: string | undefined) {
  return {
    runId,
    status: result.status === "aborted" ? "error" : result.status,
    summary: result.status === "ok" ? "completed" : (result.error ?? result.status),
    result: {
      payloads: result.payloads.map((payload) => ({
        text: payload.text,
        mediaUrl: payload.media[0] ?? null,
        ...(payload.media.length > 1 ? { mediaUrls: payload.media } : {}),
      })),
      meta: {
        durationMs: result.durationMs,
        agentMeta: {
          sessionId,
          provider: result.provider,
          model: result.model,
          usage: result.usage,
        },
        ...(result.error ? { error: result.error } : {}),
      },
    },
  };
}

async function agent(call: MethodCall<AgentParams>) {
  const { core, params } = call;
  const dedupeKey = `agent:${params.idempotencyKey}`;
  const seen = core.dedupe.get(dedupeKey);
  if (seen?.state === "in_flight") return ok({ ...seen.info, status: "in_flight" });
  if (seen?.state === "done") return ok(seen.final);
  const target = resolveTarget(core.live.config, params);
  if ("error" in target) return target.error;
  const runId = params.idempotencyKey;
  const info = { runId, sessionKey: target.sessionKey, agentId: target.agentId };
  core.dedupe.begin(dedupeKey, info);
  let run: Awaited<ReturnType<typeof core.runs.start>>;
  try {
    run = await core.runs.start({
      runId,
      agentId: target.agentId,
      sessionKey: target.sessionKey,
      message: params.message,
      ...(params.timeout ? { timeoutSeconds: params.timeout } : {}),
    });
  } catch (err) {
    core.dedupe.finish(dedupeKey, { runId, status: "error", summary: String(err) });
    throw err;
  }
  call.ack({ ...info, status: "accepted", acceptedAt: run.acceptedAt });
  const result = await run.result;
  const sessionId = core.runtime.stores.forAgent(target.agentId).get(target.sessionKey)?.sessionId;
  const final = finalPayload(runId, result, sessionId);
  core.dedupe.finish(dedupeKey, final);
  return ok(final);
}

/** The agent method group. */
export const agentMethods: Record<string, MethodHandler> = {
  agent,
  "agent.wait": async (call: MethodCall<{ runId: string; timeoutMs?: number }>) =>
    ok(await call.core.runs.wait(call.params.runId, call.params.timeoutMs ?? DEFAULT_WAIT_MS)),
};
