// The contract between the session tools and the run loop: the tools validate arguments and enforce the
// agent-to-agent and spawn policies; the host (implemented by the runtime) reads and drives sessions.

/** A value or a promise of it (an in-memory host answers synchronously). */
export type MaybePromise<T> = T | Promise<T>;

/** Token counters of a session (OpenClaw's usage shape). */
export interface SessionUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
  /** Cost in USD when the model's pricing is known. */
  cost?: number;
}

/** The session the tool call runs in, as `session_status` reports it. */
export interface SessionStatus {
  agentId: string;
  sessionKey: string;
  sessionId?: string;
  provider?: string;
  model?: string;
  usage: SessionUsage;
  /** Context window of the model, in tokens. */
  contextWindow?: number;
  thinkingLevel?: string;
  /** Messages waiting for this session's lane. */
  queueDepth?: number;
  updatedAt?: number;
}

/** Arguments of {@link SessionToolsHost.list}. */
export interface SessionsListParams {
  /** Only this agent's sessions; absent: every session the host lets the caller see. */
  agentId?: string;
  limit: number;
  /** Only sessions updated in the last N minutes. */
  activeMinutes?: number;
}

/** One session in a listing. */
export interface SessionSummary {
  sessionKey: string;
  agentId: string;
  sessionId: string;
  updatedAt: number;
  chatType?: "direct" | "group" | "channel";
  channel?: string;
  label?: string;
  model?: string;
  totalTokens?: number;
}

/** Arguments of {@link SessionToolsHost.history}. */
export interface SessionsHistoryParams {
  sessionKey: string;
  /** Owner of the session (from its key). */
  agentId: string;
  /** Newest N messages. */
  limit: number;
  includeTools: boolean;
}

/** One message of a session's history, flattened to text. */
export interface SessionHistoryMessage {
  role: "user" | "assistant" | "toolResult";
  text: string;
  timestamp?: number;
  toolName?: string;
  isError?: boolean;
}

/** Arguments of {@link SessionToolsHost.send}: a message into another session (a new turn there). */
export interface SessionsSendParams {
  fromAgentId: string;
  /** Owner of the target session (from its key). */
  agentId: string;
  sessionKey: string;
  message: string;
  /** How long to wait for the reply; 0 = fire and forget. */
  timeoutSeconds: number;
  signal?: AbortSignal;
}

/** Outcome of {@link SessionToolsHost.send}. */
export interface SessionsSendResult {
  status: "ok" | "accepted" | "timeout" | "error";
  runId?: string;
  /** The target's reply when it arrived in time. */
  reply?: string;
  error?: string;
}

/** Arguments of {@link SessionToolsHost.spawn}: a sub-agent run in a new session, minimal prompt mode. */
export interface SessionsSpawnParams {
  requesterAgentId: string;
  /** Agent that runs the task (the requester unless `subagents.allowAgents` permits another). */
  agentId: string;
  task: string;
  label?: string;
  model?: string;
  timeoutSeconds?: number;
  promptMode: "minimal";
  signal?: AbortSignal;
}

/** Outcome of {@link SessionToolsHost.spawn}. */
export interface SessionsSpawnResult {
  status: "accepted" | "ok" | "timeout" | "error";
  childSessionKey: string;
  runId?: string;
  reply?: string;
  error?: string;
}

/**
 * What the session tools need from the run loop. Policy (agent-to-agent, spawn targets) is enforced by
 * the tools before the host is called; visibility rules beyond that are the host's.
 * @example
 * const host: SessionToolsHost = { status: () => snapshot, list: (p) => store.list(p), … };
 */
export interface SessionToolsHost {
  status(): MaybePromise<SessionStatus>;
  list(params: SessionsListParams): MaybePromise<SessionSummary[]>;
  history(params: SessionsHistoryParams): MaybePromise<SessionHistoryMessage[]>;
  send(params: SessionsSendParams): Promise<SessionsSendResult>;
  spawn(params: SessionsSpawnParams): Promise<SessionsSpawnResult>;
}
