// At start-up, before the first request is read: the turn journal's settled outcomes go back into
// the dedupe and agent.wait (a retry of a key gets its stored outcome, never a second run), and every
// turn accepted but never settled is marked in flight and re-submitted in acceptance order. A resumed
// run goes on from its transcript (runtime/run/turn-recovery.ts); a turn that cannot be resumed (its
// agent is gone, or it was cut by too many restarts) is failed visibly: in the journal, agent.wait and
// its session.
import type { RunRecovery } from "../../runtime/run/index.js";
import type { GatewayCore } from "../core.js";
import { knownAgentIds } from "../methods/shared.js";
import type { JournaledTurn, PendingTurn } from "./turn-journal.js";
import { failedTurnOutcome } from "./turn-journal-outcome.js";
import { journalTurn, runJournaledTurn, settleTurn } from "./turn-journal-run.js";

/** Restarts that may cut one running turn before it is failed instead of resumed again (a turn that
 *  takes the gateway down with it must not crash-loop it). */
export const MAX_TURN_INTERRUPTIONS = 5;

/** What a duplicate of a pending turn gets while it is resumed. */
function inFlightInfo(item: PendingTurn): Record<string, unknown> {
  const { runId, sessionKey, agentId, kind } = item.data;
  return kind === "chat" ? { runId } : { runId, sessionKey, agentId };
}

/** How a pending turn goes on: resumed, or failed when cut too often while it ran. */
function plan(item: PendingTurn): { turn: JournaledTurn; recovery: RunRecovery } {
  // Only a restart that cut the turn while it ran counts, not one that found it waiting in its lane.
  const { running, ...rest } = item.data;
  const interruptions = (rest.interruptions ?? 0) + (running ? 1 : 0);
  const turn = { ...rest, interruptions };
  if (interruptions < MAX_TURN_INTERRUPTIONS) return { turn, recovery: { mode: "resume" } };
  const reason = `turn failed: the gateway stopped ${interruptions} times while it ran`;
  return { turn, recovery: { mode: "fail", reason } };
}

/** Fails a turn that has no agent to run in any more (journal, dedupe, agent.wait). */
function failUnrunnable(core: GatewayCore, failed: { item: PendingTurn; error: string }): void {
  const { item, error } = failed;
  const turn = item.data;
  const outcome = failedTurnOutcome({ core, turn, error });
  settleTurn(core, { key: item.key, outcome });
  core.runs.restore({ ...outcome.wait, sessionKey: turn.sessionKey, agentId: turn.agentId });
  core.logger.warn({ key: item.key, runId: turn.runId, error }, "journaled turn failed");
}

/** Journals every resumable turn's new state (one group commit), then starts them in order. */
async function resume(core: GatewayCore, pending: PendingTurn[]): Promise<void> {
  const agents = knownAgentIds(core.live.resolved);
  const runnable: Array<{ item: PendingTurn; turn: JournaledTurn; recovery: RunRecovery }> = [];
  for (const item of pending) {
    if (!agents.includes(item.data.agentId)) {
      const error = `turn failed: agent "${item.data.agentId}" is no longer configured`;
      failUnrunnable(core, { item, error });
      continue;
    }
    runnable.push({ item, ...plan(item) });
  }
  const journaled = await Promise.all(
    runnable.map(({ item, turn }) =>
      journalTurn(core, { key: item.key, turn, info: inFlightInfo(item) }),
    ),
  );
  for (const [index, { item, turn, recovery }] of runnable.entries()) {
    const fields = { key: item.key, runId: turn.runId, sessionKey: turn.sessionKey };
    if (journaled[index]) {
      // Still accepted (its old line stands): a retry must not start it a second time.
      core.dedupe.begin(item.key, inFlightInfo(item));
      core.logger.error(fields, "journaled turn not resumed: the journal is not writable");
      continue;
    }
    core.logger.info(
      {
        ...fields,
        interruptions: turn.interruptions,
      },
      `${recovery.mode === "resume" ? "resuming" : "failing"} journaled turn`,
    );
    try {
      const started = await runJournaledTurn(core, { key: item.key, turn, recovery });
      started.settled.catch((err: unknown) =>
        core.logger.error({ ...fields, error: String(err) }, "resumed turn failed"),
      );
    } catch (err) {
      core.logger.error({ ...fields, error: String(err) }, "journaled turn could not be resumed");
    }
  }
}

/** Seeds the dedupe and agent.wait from the journal, then resumes the pending turns in acceptance
 *  order (turns of one session keep their order in its lane). Resolves once every one is started;
 *  new turns wait for that (`core.turnsResumed`), so they queue behind the resumed ones. */
export function recoverTurns(core: GatewayCore): Promise<void> {
  for (const item of core.turns.settled()) {
    const { final, wait, sessionKey, agentId } = item.data;
    core.dedupe.restore(item.key, { state: "done", final, at: item.ts });
    core.runs.restore({ ...wait, sessionKey, agentId });
  }
  const pending = core.turns.pending();
  if (pending.length === 0) return Promise.resolve();
  core.logger.info({ pending: pending.length }, "turn journal: resuming accepted turns");
  for (const item of pending) core.dedupe.begin(item.key, inFlightInfo(item));
  const resumed = resume(core, pending);
  for (const item of pending) core.runs.announce(item.data.runId, resumed);
  return resumed;
}
