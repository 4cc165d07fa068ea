// Session store types: one `sessions.json` entry (OpenClaw's legacy SessionEntry shape) and the
// dependencies every store function receives instead of reading globals (clock, logger, id source).
import { randomUUID } from "node:crypto";

/** Chat kinds a session can belong to. */
export type SessionChatType = "direct" | "group" | "channel";

/** Where a session's first message came from (`entry.origin`); unknown fields are kept. */
export interface SessionOrigin {
  label?: string;
  provider?: string;
  surface?: string;
  chatType?: SessionChatType;
  from?: string;
  to?: string;
  accountId?: string;
  threadId?: string | number;
  [field: string]: unknown;
}

/** Where replies go (`entry.deliveryContext`), mirrored by the flat `last*` fields. */
export interface SessionDeliveryContext {
  channel?: string;
  to?: string;
  accountId?: string;
  threadId?: string | number;
  [field: string]: unknown;
}

/**
 * One value of `sessions.json`, keyed by session key. Only `sessionId` and `updatedAt` (ms epoch) are
 * required; fields this type does not name (written by OpenClaw or newer Pincer) are preserved.
 */
export interface SessionEntry {
  sessionId: string;
  updatedAt: number;
  /** Transcript path (absolute as OpenClaw writes it; relative paths resolve against the sessions dir). */
  sessionFile?: string;
  sessionStartedAt?: number;
  lastInteractionAt?: number;
  chatType?: SessionChatType;
  origin?: SessionOrigin;
  deliveryContext?: SessionDeliveryContext;
  lastChannel?: string;
  lastTo?: string;
  lastAccountId?: string;
  lastThreadId?: string | number;
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  totalTokensFresh?: boolean;
  cacheRead?: number;
  cacheWrite?: number;
  /** Dollars the session has cost so far (every turn's model cost, summed; OpenClaw's name). */
  estimatedCostUsd?: number;
  contextTokens?: number;
  compactionCount?: number;
  model?: string;
  modelProvider?: string;
  providerOverride?: string;
  modelOverride?: string;
  authProfileOverride?: string;
  thinkingLevel?: string;
  verboseLevel?: string;
  reasoningLevel?: string;
  /** The usage footer on replies: `off`, `tokens` or `full` (absent: `messages.responseUsage`). */
  responseUsage?: string;
  elevatedLevel?: string;
  sendPolicy?: "allow" | "deny";
  groupActivation?: "mention" | "always";
  queueMode?: string;
  label?: string;
  displayName?: string;
  systemSent?: boolean;
  abortedLastRun?: boolean;
  /** Pinned sessions are never pruned by maintenance. */
  pinnedAt?: number;
  [field: string]: unknown;
}

/** Fields a caller may set when a session is created (everything but the identity fields). */
export type SessionInit = Omit<Partial<SessionEntry>, "sessionId" | "sessionFile" | "updatedAt">;

/** Time source; tests pass a fake one. */
export interface Clock {
  now(): number;
}

/** Generates session ids (UUIDs) and transcript entry ids (8 hex chars, as pi-coding-agent does). */
export interface IdSource {
  sessionId(): string;
  entryId(): string;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** Random ids: UUID session ids and the first 8 hex chars of a UUID for entries. */
export const randomIds: IdSource = {
  sessionId: () => randomUUID(),
  entryId: () => randomUUID().slice(0, 8),
};

/** Raised by a mutation on a store opened without the state-dir lock. */
export class SessionStoreReadOnlyError extends Error {
  constructor(readonly storePath: string) {
    super(`session store ${storePath} is open read-only (the state-dir lock is not held)`);
    this.name = "SessionStoreReadOnlyError";
  }
}

/** Raised when a mutation names a session key the store does not have. */
export class SessionNotFoundError extends Error {
  constructor(readonly sessionKey: string) {
    super(`no session ${sessionKey}`);
    this.name = "SessionNotFoundError";
  }
}
