// The typed plugin hooks (OpenClaw's names and event/result shapes): one event type, one context
// type and one result type per hook name, so `api.on(name, handler)` checks what a handler receives
// and what it may return.

/** What every agent-side hook is told about the run it belongs to. */
export interface PluginHookAgentContext {
  agentId?: string;
  sessionKey?: string;
  sessionId?: string;
  runId?: string;
  workspaceDir?: string;
  /** The channel a channel turn came from (`telegram`, …); absent for WS and CLI turns. */
  messageProvider?: string;
}

/** The context of a tool hook: the run's, plus the tool called. */
export interface PluginHookToolContext extends PluginHookAgentContext {
  toolName: string;
  toolCallId?: string;
}

/** The context of a message hook: where the message came from or goes to. */
export interface PluginHookMessageContext {
  /** The channel id (`telegram`, …). */
  channelId: string;
  accountId?: string;
  /** The peer (chat) id. */
  conversationId?: string;
}

/** The context of a session hook. */
export interface PluginHookSessionContext {
  agentId?: string;
  sessionId: string;
  sessionKey?: string;
}

/** The context of a gateway hook. */
export interface PluginHookGatewayContext {
  port?: number;
}

/** `before_model_resolve`: may pick another model for this run. */
export interface BeforeModelResolveEvent {
  prompt: string;
}
/** What `before_model_resolve` may return (the first defined value wins). */
export interface BeforeModelResolveResult {
  modelOverride?: string;
  providerOverride?: string;
}

/** `before_prompt_build`: may add context to the prompt or change the system prompt. */
export interface BeforePromptBuildEvent {
  prompt: string;
  /** The session's history (a copy: changing it changes nothing). */
  messages: unknown[];
}
/** What `before_prompt_build` may return: `systemPrompt` (first wins) replaces the system prompt;
 *  the rest are concatenated in priority order. */
export interface BeforePromptBuildResult {
  systemPrompt?: string;
  prependContext?: string;
  appendContext?: string;
  prependSystemContext?: string;
  appendSystemContext?: string;
}

/** `before_agent_start` (legacy combined phase): both of the above. */
export type BeforeAgentStartEvent = BeforePromptBuildEvent;
/** What `before_agent_start` may return. */
export type BeforeAgentStartResult = BeforePromptBuildResult & BeforeModelResolveResult;

/** `agent_end`: the run is over. */
export interface AgentEndEvent {
  messages: unknown[];
  success: boolean;
  error?: string;
  durationMs?: number;
}

/** `before_compaction`: the session's older history is about to be summarized. */
export interface BeforeCompactionEvent {
  messageCount: number;
  tokenCount?: number;
}
/** `after_compaction`: it was. */
export interface AfterCompactionEvent {
  messageCount: number;
  compactedCount: number;
  tokenCount?: number;
}

/** `before_tool_call`: may block the call or rewrite its params. */
export interface BeforeToolCallEvent {
  toolName: string;
  params: Record<string, unknown>;
  runId?: string;
  toolCallId?: string;
}
/** What `before_tool_call` may return: `block: true` ends the call with an error naming the
 *  reason (later handlers are skipped); `params` replaces the call's params. */
export interface BeforeToolCallResult {
  params?: Record<string, unknown>;
  block?: boolean;
  blockReason?: string;
}

/** `after_tool_call`: what a call returned or why it failed. */
export interface AfterToolCallEvent {
  toolName: string;
  params: Record<string, unknown>;
  runId?: string;
  toolCallId?: string;
  result?: unknown;
  error?: string;
  durationMs?: number;
}

/** `tool_result_persist` (synchronous): may rewrite the tool result written to the transcript. */
export interface ToolResultPersistEvent {
  toolName?: string;
  toolCallId?: string;
  message: Record<string, unknown>;
  isSynthetic?: boolean;
}
/** What `tool_result_persist` may return. */
export interface ToolResultPersistResult {
  message?: Record<string, unknown>;
}

/** `message_received`: an inbound channel message. */
export interface MessageReceivedEvent {
  from: string;
  content: string;
  timestamp?: number;
  metadata?: Record<string, unknown>;
}

/** `message_sending`: a channel message about to be sent; may be rewritten or cancelled. */
export interface MessageSendingEvent {
  to: string;
  content: string;
  metadata?: Record<string, unknown>;
}
/** What `message_sending` may return: `cancel: true` drops the message (later handlers skipped). */
export interface MessageSendingResult {
  content?: string;
  cancel?: boolean;
}

/** `message_sent`: a channel message was sent, or failed. */
export interface MessageSentEvent {
  to: string;
  content: string;
  success: boolean;
  error?: string;
}

/** `session_start`: a session (a new session id under a key) began. */
export interface SessionStartEvent {
  sessionId: string;
  sessionKey?: string;
  resumedFrom?: string;
}
/** `session_end`: a session ended (reset, deleted, pruned). */
export interface SessionEndEvent {
  sessionId: string;
  sessionKey?: string;
  reason?: string;
}

/** `gateway_start` / `gateway_stop`. */
export interface GatewayStartEvent {
  port: number;
}
/** `gateway_stop`'s event. */
export interface GatewayStopEvent {
  reason?: string;
}

/** Every hook: its event, its context and what its handler may return. */
export interface PluginHookMap {
  before_model_resolve: [BeforeModelResolveEvent, PluginHookAgentContext, BeforeModelResolveResult];
  before_prompt_build: [BeforePromptBuildEvent, PluginHookAgentContext, BeforePromptBuildResult];
  before_agent_start: [BeforeAgentStartEvent, PluginHookAgentContext, BeforeAgentStartResult];
  agent_end: [AgentEndEvent, PluginHookAgentContext, undefined];
  before_compaction: [BeforeCompactionEvent, PluginHookAgentContext, undefined];
  after_compaction: [AfterCompactionEvent, PluginHookAgentContext, undefined];
  before_tool_call: [BeforeToolCallEvent, PluginHookToolContext, BeforeToolCallResult];
  after_tool_call: [AfterToolCallEvent, PluginHookToolContext, undefined];
  tool_result_persist: [ToolResultPersistEvent, PluginHookToolContext, ToolResultPersistResult];
  message_received: [MessageReceivedEvent, PluginHookMessageContext, undefined];
  message_sending: [MessageSendingEvent, PluginHookMessageContext, MessageSendingResult];
  message_sent: [MessageSentEvent, PluginHookMessageContext, undefined];
  session_start: [SessionStartEvent, PluginHookSessionContext, undefined];
  session_end: [SessionEndEvent, PluginHookSessionContext, undefined];
  gateway_start: [GatewayStartEvent, PluginHookGatewayContext, undefined];
  gateway_stop: [GatewayStopEvent, PluginHookGatewayContext, undefined];
}

/** A hook's name. */
export type PluginHookName = keyof PluginHookMap;

/** Every hook name, for validating `api.on` at run time. */
export const PLUGIN_HOOK_NAMES: readonly PluginHookName[] = [
  "before_model_resolve",
  "before_prompt_build",
  "before_agent_start",
  "agent_end",
  "before_compaction",
  "after_compaction",
  "before_tool_call",
  "after_tool_call",
  "tool_result_persist",
  "message_received",
  "message_sending",
  "message_sent",
  "session_start",
  "session_end",
  "gateway_start",
  "gateway_stop",
];

/** A handler of hook `K`. */
export type PluginHookHandler<K extends PluginHookName> = (
  event: PluginHookMap[K][0],
  ctx: PluginHookMap[K][1],
) => HookReturn<PluginHookMap[K][2]>;

/** A handler's return: its result, nothing, or a promise of either. */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers that return nothing are `void` functions.
type HookReturn<R> = R | void | Promise<R | void>;

/** Options of `api.on`. */
export interface PluginHookOptions {
  /** Higher runs first; ties keep registration order. Default 0. */
  priority?: number;
  /** This handler's time budget (ms); the operator's `plugins.entries.<id>.hooks` wins. */
  timeoutMs?: number;
}

/** One registered handler. */
export interface PluginHookRegistration {
  pluginId: string;
  hookName: PluginHookName;
  // biome-ignore lint/suspicious/noExplicitAny: each entry's handler is typed by its hookName at api.on.
  handler: (event: any, ctx: any) => unknown;
  priority: number;
  /** The effective time limit (ms) after the operator's overrides; undefined: the hook's default. */
  timeoutMs?: number;
  /** Registration order, the tie-breaker. */
  order: number;
}
