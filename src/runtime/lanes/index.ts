// Public surface of run lanes: per-session serialization with a global cap, the inbound message queue
// (steer / followup / collect / interrupt, debounce, cap, drop) and the steer-mode loop hooks.
export {
  COLLECT_HEADER,
  type InboundMessage,
  joinCollected,
  SUMMARY_SAMPLES,
  summarizeDropped,
} from "./coalesce.js";
export {
  createInboundQueue,
  type DropReason,
  type InboundQueue,
  type InboundQueueEvent,
  type InboundQueueParams,
  type QueuedTurn,
  type SessionQueuePhase,
  type SubmitDisposition,
  type SubmitParams,
  type SubmitResult,
} from "./inbound-queue.js";
export {
  DEFAULT_QUEUE_SETTINGS,
  normalizeQueueDrop,
  normalizeQueueMode,
  type QueueDropPolicy,
  type QueueModeName,
  type QueueOverride,
  type QueueSettings,
  queueOverrideFromSession,
  type ResolveQueueSettingsParams,
  resolveQueueSettings,
} from "./queue-settings.js";
export {
  createLaneScheduler,
  DEFAULT_MAX_CONCURRENT,
  type EnqueueOptions,
  LaneCancelledError,
  type LaneEvent,
  type LaneGroups,
  type LaneRunHandle,
  type LaneScheduler,
  type LaneSchedulerOptions,
  type LaneTask,
  type LaneTaskInfo,
} from "./scheduler.js";
export {
  createSteeringHooks,
  SKIPPED_TOOL_CALL_TEXT,
  type SteeringHooks,
  type SteeringSource,
  skippedToolResult,
  steerIdOf,
  steeringToUserMessage,
} from "./steering.js";
export { systemTimers, type Timers } from "./timers.js";
