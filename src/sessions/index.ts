// Public surface of the session store: per-agent sessions.json index + JSONL transcripts (OpenClaw's
// legacy file layout), the state-dir lock, retention. Other areas import from here only.

export {
  type ArchiveFile,
  type ArchiveReason,
  formatArchiveTimestamp,
  listArchives,
  parseArchiveTimestamp,
} from "./archive.js";
export { type ForkOutcome, type ForkSessionParams, forkSessionTranscript } from "./fork.js";
export { journalPathFor } from "./journal.js";
export {
  type AcquireStateDirLockParams,
  acquireStateDirLock,
  isProcessAlive,
  readStateDirLock,
  STATE_DIR_LOCK_FILE,
  type StateDirLock,
  StateDirLockedError,
  type StateDirLockInfo,
  stateDirLockPath,
} from "./lock.js";
export {
  DEFAULT_MAX_ENTRIES,
  DEFAULT_PRUNE_AFTER_MS,
  type MaintenanceSettings,
  type PrunedSession,
  parseDurationMs,
  resolveMaintenanceSettings,
  type SessionMaintenanceConfig,
} from "./maintenance.js";
// The PostgreSQL store is imported from ./postgres/* where used (and loaded lazily by the registry),
// so a files-only process never loads the PostgreSQL client.
export { TranscriptNotLoadedError } from "./postgres/pg-store-transcripts.js";
export {
  SessionStoreRegistry,
  type SessionStoreRegistryParams,
  type SessionsConfig,
} from "./registry.js";
export {
  checkSessionReset,
  DEFAULT_RESET_TRIGGERS,
  evaluateSessionReset,
  hostTimeZone,
  matchResetTrigger,
  type ResolvedResetPolicy,
  resolveResetPolicy,
  type SessionResetKind,
  type SessionResetVerdict,
  sessionResetKind,
} from "./reset-policy.js";
export { type AppliedSessionReset, applySessionResetPolicy } from "./reset-policy-apply.js";
export {
  type CleanupReport,
  type ListSessionsOptions,
  type OpenSessionStoreParams,
  openSessionStore,
  type SessionLifecycleEvent,
  type SessionListItem,
  type SessionRemoval,
  SessionStore,
  type TranscriptDurability,
} from "./store.js";
export type { SessionStoreApi, SessionStoreStats, TranscriptApi } from "./store-api.js";
export { backupPathFor } from "./store-file.js";
export { type PersistenceStats, type Scheduler, systemScheduler } from "./store-persistence.js";
export {
  type OpenTranscriptParams,
  openTranscript,
  type ReadTranscriptParams,
  readTranscript,
  Transcript,
  type TranscriptFsyncPolicy,
  type TranscriptIssue,
  type TranscriptReadResult,
} from "./transcript.js";
export {
  type CompactionEntry,
  type CustomEntry,
  currentBranch,
  describeEntry,
  isMessageEntry,
  type MessageEntry,
  type ModelChangeEntry,
  messageText,
  type ThinkingLevelChangeEntry,
  TRANSCRIPT_VERSION,
  type TranscriptEntry,
  type TranscriptEntryInput,
  type TranscriptHeader,
  type TranscriptMessage,
} from "./transcript-format.js";
export { resolveTranscriptPath } from "./transcript-location.js";
export {
  type Clock,
  type IdSource,
  randomIds,
  type SessionChatType,
  type SessionDeliveryContext,
  type SessionEntry,
  type SessionInit,
  SessionNotFoundError,
  type SessionOrigin,
  SessionStoreReadOnlyError,
  systemClock,
} from "./types.js";
