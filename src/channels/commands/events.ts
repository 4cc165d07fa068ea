// The in-process `command` event API: every handled chat command is announced to the subscribers of
// one emitter (the gateway owns it and passes it in), so hooks can act on `/new`, `/reset`, `/stop`, …
// later without the command handlers knowing about them. A failing listener is logged, never fatal.
import type { Logger } from "../types.js";

/** One handled command: what it did, where, and who asked. */
export interface CommandEvent {
  type: "command";
  /** The command's canonical name (`new`, `reset`, `stop`, `status`, …). */
  action: string;
  sessionKey: string;
  agentId: string;
  /** The surface the command came from (`telegram`, …, or `webchat` for chat.send). */
  channel: string;
  accountId?: string;
  /** The sender's id on that surface (the connection's client id for chat.send). */
  senderId: string;
  /** The session id after the command (a reset's new id). */
  sessionId?: string;
  /** The session id before a reset. */
  previousSessionId?: string;
  /** The command's arguments as typed. */
  args: string;
  timestamp: number;
}

/** Receives command events. */
export type CommandListener = (event: CommandEvent) => void;

/** Subscribe to and emit command events. */
export interface CommandEvents {
  /** Adds a listener; returns its unsubscribe. */
  subscribe(listener: CommandListener): () => void;
  emit(event: CommandEvent): void;
}

/** A new emitter (one per gateway). */
export function createCommandEvents(log?: Logger): CommandEvents {
  const listeners = new Set<CommandListener>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (err) {
          log?.error({ action: event.action, error: String(err) }, "command listener failed");
        }
      }
    },
  };
}
