// What a chat command is (one definition each: name, aliases, help text, whether it changes state,
// its handler) and what a handler is given: the request (who, where, which session) and the host
// (config, stores, abort, compaction, context report), all passed in.
import type { ContextReport } from "../../agents/context-report.js";
import type { ExecApprovalQueue } from "../../runtime/approvals/index.js";
import type { AgentRuntimeDeps, ManualCompactionResult } from "../../runtime/run/index.js";

/** Where a command came from: a chat channel (DM or group) or an operator's chat.send. */
export type CommandChatType = "direct" | "group" | "operator";

/** One command to answer: the parsed command, its session and its sender. */
export interface CommandRequest {
  /** The canonical command name (an alias already resolved). */
  name: string;
  /** The name as typed (an alias, lowercased). */
  typed: string;
  args: string;
  agentId: string;
  sessionKey: string;
  /** `telegram`, …, or `webchat` for chat.send. */
  channel: string;
  accountId?: string;
  chatType: CommandChatType;
  /** The sender's id as allowlists and bindings see it. */
  senderId: string;
  senderUsername?: string;
  /** The peer (chat) id, for `/whoami` in a group. */
  peerId?: string;
  /** An operator's connection scopes (chat.send); commands that need more than the write refuse. */
  scopes?: readonly string[];
}

/** What a command answers, plus what its event reports. */
export interface CommandOutcome {
  /** The reply shown in the chat (Markdown-free plain text). */
  text: string;
  /** Session ids a reset changed (for the command event). */
  sessionId?: string;
  previousSessionId?: string;
  /** Runs once the reply is delivered and recorded (so a replay finds it answered): `/restart`. */
  afterReply?: () => void;
}

/** What handlers may use; built by the gateway, passed in. */
export interface CommandHost {
  /** The runtime deps of the config current now (config, paths, env, stores, lanes). */
  runtimeDeps: () => Promise<AgentRuntimeDeps>;
  /** Aborts the session's running and queued turns (WS and channel); returns the aborted count. */
  abortSession: (sessionKey: string) => { runs: number; dropped: number };
  /** Compacts a session now, in its lane (what `sessions.compact` does). */
  compact: (target: {
    agentId: string;
    sessionKey: string;
    /** The user's instructions for the summary. */
    instructions?: string;
  }) => Promise<ManualCompactionResult>;
  /** The context report of a session (what `pincer context` shows). */
  contextReport: (target: { agentId: string; sessionKey: string }) => Promise<ContextReport>;
  now: () => number;
  /** Tells `sessions.subscribe` clients a session changed (reset, compact). */
  announce?: (sessionKey: string, reason: string) => void;
  /** Asks the embedder to restart the gateway (absent: this gateway cannot restart itself). */
  requestRestart?: (reason: string) => void;
  /** Why the gateway would not start again now (its config file is invalid), if so. */
  restartRefusal?: () => string | undefined;
  /** The gateway's pending exec approvals (`/approve`); absent: none can be answered here. */
  approvals?: ExecApprovalQueue;
  /** The commands this sender may see (for /help and /commands). */
  visible: (request: CommandRequest) => readonly CommandDefinition[];
}

/** One chat command. */
export interface CommandDefinition {
  name: string;
  aliases: readonly string[];
  /** Argument summary for the help list (`[instructions]`, `list|detail`). */
  args?: string;
  description: string;
  /** Changes session or gateway state: in groups only authorized senders may use it. */
  changesState: boolean;
  /** Only `commands.ownerAllowFrom` senders (and operators) may use it. */
  ownerOnly?: boolean;
  /** Arguments that make the message a directive for its own run, not this command (`/think high
   *  what is …`): such a message goes to the model. */
  isDirective?: (args: string) => boolean;
  run: (request: CommandRequest, host: CommandHost) => Promise<CommandOutcome> | CommandOutcome;
}
