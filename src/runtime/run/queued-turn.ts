// A turn of the inbound queue as a run: its prompt and images, its lane run's id, its lane slot
// (the queue already holds it: no second enqueue) and itself as the steering source, so steer mode
// reaches the running loop.
import type { QueuedTurn } from "../lanes/index.js";
import type { RunAgentParams } from "./run-agent.js";

/** The `runAgent` params of a queued turn. */
export function queuedTurnRun(turn: QueuedTurn): RunAgentParams {
  return {
    runId: turn.runId,
    sessionKey: turn.sessionKey,
    message: turn.prompt,
    ...(turn.images.length ? { images: turn.images } : {}),
    steering: turn,
    laneSlot: turn.signal,
  };
}
