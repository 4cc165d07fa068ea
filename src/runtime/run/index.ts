// Public surface of the run: runAgent (the one way to start a run) and its events, results and dependencies.
export { createEventChannel, type EventChannel, type RunEvent, type RunStatus } from "./events.js";
export { compactSessionNow, type ManualCompactionResult } from "./manual-compact.js";
export { queuedTurnRun } from "./queued-turn.js";
export type { ReplyDisplay } from "./reply-display.js";
export {
  type AgentRuntimeDeps,
  type ReplyPayload,
  type RunAgentParams,
  type RunHandle,
  type RunResult,
  runAgent,
} from "./run-agent.js";
export { createRunCaches, type RunCaches } from "./run-caches.js";
export type { RunRecovery } from "./turn-recovery.js";
export { type WarmUpReport, warmRunPath } from "./warm-up.js";
