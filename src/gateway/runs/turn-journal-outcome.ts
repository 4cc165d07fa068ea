// What a journaled turn's method answers once the turn ended: the `agent` final (`{runId, status,
// summary, result}` on the request's id) or chat.send's `{runId, status}`; the same payload is stored in the dedupe and the journal,
// so a retry of the idempotency key gets it, before or after a restart.
import type { RunResult } from "../../runtime/run/index.js";
import type { GatewayCore } from "../core.js";
import { waitStatus } from "./run-tracker.js";
import type { JournaledTurn, TurnOutcome } from "./turn-journal.js";

/** The `agent` final payload of a run. */
export function agentFinal(params: {
  runId: string;
  result: RunResult;
  sessionId: string | undefined;
}) {
  const { runId, result, sessionId } = params;
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

/** The final payload of a turn whose run ended with `result`. */
export function turnFinal(params: {
  core: GatewayCore;
  turn: JournaledTurn;
  result: RunResult;
}): Record<string, unknown> {
  const { core, turn, result } = params;
  if (turn.kind === "chat") {
    return {
      runId: turn.runId,
      status: result.status,
      ...(result.error ? { error: result.error } : {}),
    };
  }
  const store = core.runtime.stores.forAgent(turn.agentId);
  return agentFinal({
    runId: turn.runId,
    result,
    sessionId: store.get(turn.sessionKey)?.sessionId,
  });
}

/** The outcome of a turn that ended with `result` (started at `startedAt`, if it started). */
export function turnOutcome(params: {
  core: GatewayCore;
  turn: JournaledTurn;
  result: RunResult;
  startedAt: number | undefined;
}): TurnOutcome {
  const { core, turn, result, startedAt } = params;
  return {
    sessionKey: turn.sessionKey,
    agentId: turn.agentId,
    final: turnFinal({ core, turn, result }),
    wait: {
      runId: turn.runId,
      status: waitStatus(result),
      ...(startedAt !== undefined ? { startedAt } : {}),
      endedAt: core.now(),
      ...(result.error ? { error: result.error } : {}),
    },
  };
}

/** The outcome of a turn that never ran (its run could not start, or a restart cannot resume it). */
export function failedTurnOutcome(params: {
  core: GatewayCore;
  turn: JournaledTurn;
  error: string;
}) {
  const { core, turn, error } = params;
  const final =
    turn.kind === "chat"
      ? { runId: turn.runId, status: "error", error }
      : { runId: turn.runId, status: "error", summary: error };
  const wait = { runId: turn.runId, status: "error" as const, endedAt: core.now(), error };
  return { sessionKey: turn.sessionKey, agentId: turn.agentId, final, wait } satisfies TurnOutcome;
}
