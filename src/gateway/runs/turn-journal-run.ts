// Runs one WS turn under the journal: marked in flight in the dedupe, journaled (fsynced) before the
// caller acknowledges it, started, and settled with its outcome when it ends (its transcript is
// flushed first), so a retry of its idempotency key gets that outcome before or after a restart. A
// run cut by a gateway shutdown is not settled: it stays pending and the next start resumes it.
import { ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import type { RunRecovery } from "../../runtime/run/index.js";
import type { GatewayCore } from "../core.js";
import { fail, type MethodResult } from "../methods/method.js";
import type { TrackedRun } from "./run-tracker.js";
import type { JournaledTurn, TurnOutcome } from "./turn-journal.js";
import { failedTurnOutcome, turnOutcome } from "./turn-journal-outcome.js";

/** A started journaled turn. */
export interface StartedTurn {
  run: TrackedRun;
  /** The final payload once the outcome is settled; undefined when a shutdown interrupted the run
   *  (it stays pending and resumes after the restart). */
  settled: Promise<Record<string, unknown> | undefined>;
}

/** A turn to journal: its dedupe key (`agent:<idempotencyKey>` / `chat:<idempotencyKey>`), what the
 *  journal keeps of it, and what a duplicate gets while it is in flight. */
export interface TurnToJournal {
  key: string;
  turn: JournaledTurn;
  info: Record<string, unknown>;
}

/** The error a client gets when its turn could not be journaled (nothing was accepted). */
function notJournaled(err: unknown): MethodResult {
  return fail(
    gatewayError(ErrorCodes.UNAVAILABLE, `turn not accepted: it could not be journaled (${err})`, {
      retryable: true,
    }),
  );
}

/** Settles a turn: the dedupe at once (a retry right after agent.wait gets the outcome), and the
 *  journal: its line is written now (a kill -9 keeps it) and fsynced in the background, so the final
 *  answer never waits on the disk. Until that line is on disk a crash resumes the turn, which finds
 *  its reply in the transcript (flushed before the run's result) and answers with it. */
export function settleTurn(
  core: GatewayCore,
  settled: { key: string; outcome: TurnOutcome },
): void {
  const { key, outcome } = settled;
  core.dedupe.finish(key, outcome.final);
  core.turns.settle(key, outcome).catch((err: unknown) => {
    core.logger.error(
      {
        key,
        error: String(err),
      },
      "turn outcome not journaled: a restart would resume the turn",
    );
  });
}

/** Marks a turn in flight and journals it (resolves once durable); an error value when it could not
 *  be journaled: then nothing was accepted and a retry may try again. */
export async function journalTurn(
  core: GatewayCore,
  params: TurnToJournal,
): Promise<MethodResult | undefined> {
  const { key, turn } = params;
  core.dedupe.begin(key, params.info);
  try {
    await core.turns.accept(key, turn);
    return undefined;
  } catch (err) {
    core.dedupe.delete(key);
    core.logger.error({ key, error: String(err) }, "turn journal write failed");
    return notJournaled(err);
  }
}

/** Starts a journaled turn's run and settles its outcome when it ends. A run that cannot start is
 *  settled as failed (and the error rethrown). */
export async function runJournaledTurn(
  core: GatewayCore,
  params: { key: string; turn: JournaledTurn; recovery?: RunRecovery },
): Promise<StartedTurn> {
  const { key, turn } = params;
  let run: TrackedRun;
  try {
    run = await core.runs.start({
      runId: turn.runId,
      agentId: turn.agentId,
      sessionKey: turn.sessionKey,
      message: turn.message,
      ...(turn.images?.length ? { images: turn.images } : {}),
      ...(turn.timeoutSeconds !== undefined ? { timeoutSeconds: turn.timeoutSeconds } : {}),
      ...(params.recovery ? { recovery: params.recovery } : {}),
      // Not synced on its own: it only lets a restart count an interruption (crash-loop guard).
      onStart: () => {
        try {
          core.turns.update(key, { ...turn, running: true });
        } catch (err) {
          core.logger.warn({ key, error: String(err) }, "turn journal: start not recorded");
        }
      },
    });
  } catch (err) {
    const outcome = failedTurnOutcome({ core, turn, error: String(err) });
    settleTurn(core, { key, outcome });
    core.runs.restore({ ...outcome.wait, sessionKey: turn.sessionKey, agentId: turn.agentId });
    throw err;
  }
  const settled = run.result
    .then((result) => {
      if (run.interrupted) return undefined;
      const outcome = turnOutcome({ core, turn, result, startedAt: run.startedAt });
      settleTurn(core, { key, outcome });
      return outcome.final;
    })
    .catch((err: unknown) => {
      // The outcome could not be built (a bug): the key is settled as failed, never left in flight.
      core.logger.error({ key, runId: turn.runId, error: String(err) }, "turn outcome failed");
      const outcome = failedTurnOutcome({ core, turn, error: String(err) });
      settleTurn(core, { key, outcome });
      return outcome.final;
    });
  return { run, settled };
}

/** What `agent` and `chat.send` do: journal the turn, then (once the turns a restart resumes are in
 *  their lanes, so a new turn queues behind them) start it. */
export async function startJournaledTurn(
  core: GatewayCore,
  params: TurnToJournal,
): Promise<{ ok: true; turn: StartedTurn } | { ok: false; error: MethodResult }> {
  // Runs on workers: while NATS is unreachable the turn is refused before it is journaled, so a
  // retry with the same idempotencyKey is a new attempt (gateway/runs/cluster-runs.ts).
  await core.runtime.cluster?.ready();
  const queueDown = core.runtime.cluster?.refusal();
  if (queueDown)
    return {
      ok: false,
      error: fail(gatewayError(ErrorCodes.UNAVAILABLE, queueDown, { retryable: true })),
    };
  const refused = await journalTurn(core, params);
  if (refused) return { ok: false, error: refused };
  await core.turnsResumed;
  return { ok: true, turn: await runJournaledTurn(core, params) };
}
