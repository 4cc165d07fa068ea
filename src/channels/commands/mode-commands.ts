// The session mode commands: the display settings (/verbose, /reasoning, /usage:
// display-commands.ts) and /queue, which stores the session's queue mode and options (debounce, cap,
// drop) that the channel's lane queue reads for this session's next messages. Alone, /queue shows the
// current value; `default` clears it; an unknown value is refused with the valid ones named, and
// nothing is stored.

import { SESSION_QUEUE_MODES } from "../../protocol/gateway/session-levels.js";
import {
  normalizeQueueDrop,
  normalizeQueueMode,
  queueOverrideFromSession,
} from "../../runtime/lanes/index.js";
import type { SessionEntry } from "../../sessions/index.js";
import { displayCommands } from "./display-commands.js";
import { storeOverride } from "./override-commands.js";
import type { CommandDefinition, CommandHost, CommandOutcome, CommandRequest } from "./types.js";

const CLEAR_WORD = "default";

const QUEUE_MODES: readonly string[] = SESSION_QUEUE_MODES;

/** `500`, `500ms`, `2s`, `1m` as milliseconds; undefined when it is none of those. */
function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text);
  if (!match) return undefined;
  const unit = match[2] === "s" ? 1000 : match[2] === "m" ? 60_000 : 1;
  return Math.round(Number(match[1]) * unit);
}

/** The entry fields `/queue <args>` sets, or why the arguments are refused. */
function parseQueueArgs(args: string): Partial<SessionEntry> | { error: string } {
  const changes: Partial<SessionEntry> = {};
  for (const token of args.split(/\s+/).filter(Boolean)) {
    const [key, value = ""] = token.toLowerCase().split(":", 2) as [string, string?];
    if (!token.includes(":")) {
      const mode = normalizeQueueMode(key);
      if (!mode)
        return { error: `Unknown queue mode "${token}". Valid: ${QUEUE_MODES.join(", ")}.` };
      changes.queueMode = mode;
    } else if (key === "debounce") {
      const ms = parseDuration(value);
      if (ms === undefined)
        return { error: `Bad debounce "${value}": write e.g. debounce:500ms or debounce:2s.` };
      changes.queueDebounceMs = ms;
    } else if (key === "cap") {
      const cap = Number(value);
      if (!Number.isInteger(cap) || cap < 1)
        return { error: `Bad cap "${value}": a whole number of at least 1.` };
      changes.queueCap = cap;
    } else if (key === "drop") {
      const drop = normalizeQueueDrop(value);
      if (!drop) return { error: `Bad drop "${value}". Valid: old, new, summarize.` };
      changes.queueDrop = drop;
    } else {
      return { error: `Unknown queue option "${key}:". Valid: debounce:, cap:, drop:.` };
    }
  }
  return changes;
}

function describeQueue(entry: SessionEntry | undefined): string {
  const override = queueOverrideFromSession(entry as Record<string, unknown> | undefined);
  const parts = [
    `mode ${override.mode ?? "default"}`,
    ...(override.debounceMs !== undefined ? [`debounce ${override.debounceMs}ms`] : []),
    ...(override.cap !== undefined ? [`cap ${override.cap}`] : []),
    ...(override.drop !== undefined ? [`drop ${override.drop}`] : []),
  ];
  return parts.join(", ");
}

async function queue(request: CommandRequest, host: CommandHost): Promise<CommandOutcome> {
  const store = (await host.runtimeDeps()).stores.forAgent(request.agentId);
  const args = request.args.trim();
  if (!args) {
    return {
      text: `Queue: ${describeQueue(store.get(request.sessionKey))}. Set it with /queue <${QUEUE_MODES.join("|")}> [debounce:2s] [cap:N] [drop:old|new|summarize], or /queue ${CLEAR_WORD}.`,
    };
  }
  const changes: Partial<SessionEntry> | { error: string } =
    args.toLowerCase() === CLEAR_WORD
      ? {
          queueMode: undefined,
          queueDebounceMs: undefined,
          queueCap: undefined,
          queueDrop: undefined,
        }
      : parseQueueArgs(args);
  if ("error" in changes && typeof changes.error === "string") return { text: changes.error };
  const entry = storeOverride(store, request.sessionKey, changes);
  host.announce?.(request.sessionKey, "patch");
  return { text: `Queue for this session: ${describeQueue(entry)}.` };
}

/** The mode command definitions. */
export const modeCommands: CommandDefinition[] = [
  ...displayCommands,
  {
    name: "queue",
    aliases: [],
    args: "[steer|followup|collect|interrupt] [debounce:] [cap:] [drop:]",
    description: "show or set how messages sent during a turn are queued in this session",
    changesState: true,
    run: queue,
  },
];
