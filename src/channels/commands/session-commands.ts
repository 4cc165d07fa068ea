// The commands that change a session: /new and /reset (a new session id for this session key, the
// old transcript archived as `sessions.reset` does; `/new <model>[@<profile>]` starts it on that
// model and auth profile), /stop (abort the running turn and drop what
// the session has queued) and /compact (compact now, reply with the sizes before and after).
import { buildContextFromBranch } from "../../runtime/compaction/session-view.js";
import { currentBranch, type SessionStoreApi } from "../../sessions/index.js";
import { checkSessionModel, chooseSessionModel } from "./override-commands.js";
import type { CommandDefinition, CommandHost, CommandOutcome, CommandRequest } from "./types.js";

async function sessionStore(request: CommandRequest, host: CommandHost): Promise<SessionStoreApi> {
  return (await host.runtimeDeps()).stores.forAgent(request.agentId);
}

async function reset(request: CommandRequest, host: CommandHost): Promise<CommandOutcome> {
  const typedModel = request.args.trim();
  if (typedModel) {
    // The model is checked before anything is reset: a refused choice changes nothing.
    const pick = await checkSessionModel(request, host, typedModel);
    if (!pick.ok) return { text: `${pick.text.replace(/\.$/, "")}; nothing was reset.` };
  }
  const store = await sessionStore(request, host);
  // As sessions.reset does: the running turn (and what is queued behind it) ends first.
  const stopped = host.abortSession(request.sessionKey);
  const previous = store.get(request.sessionKey);
  const entry = previous
    ? store.reset(request.sessionKey).entry
    : store.getOrCreate(request.sessionKey).entry;
  host.announce?.(request.sessionKey, "reset");
  const aborted = stopped.runs > 0 ? " The running turn was stopped." : "";
  const chosen = typedModel ? await chooseSessionModel(request, host, typedModel) : undefined;
  const onModel = chosen
    ? chosen.ok
      ? ` Model: ${chosen.ref}.${chosen.note}`
      : ` ${chosen.text}`
    : "";
  return {
    text: `New session started (id ${entry.sessionId}).${aborted}${onModel}`,
    sessionId: entry.sessionId,
    ...(previous ? { previousSessionId: previous.sessionId } : {}),
  };
}

function stop(request: CommandRequest, host: CommandHost): CommandOutcome {
  const { runs, dropped } = host.abortSession(request.sessionKey);
  if (runs === 0 && dropped === 0) return { text: "Nothing is running." };
  const parts = [runs > 0 ? "Stopped the running turn." : "No turn was running."];
  if (dropped > 0) parts.push(`Dropped ${dropped} queued message${dropped === 1 ? "" : "s"}.`);
  return { text: parts.join(" ") };
}

interface HistorySize {
  messages: number;
  chars: number;
}

/** What the model is sent of the history: a compaction's summary, then what it kept and after. */
function historySize(store: SessionStoreApi, sessionKey: string): HistorySize {
  const read = store.readTranscript(sessionKey);
  const messages = read ? buildContextFromBranch(currentBranch(read.entries)) : [];
  const chars = messages.reduce((sum, message) => sum + JSON.stringify(message).length, 0);
  return { messages: messages.length, chars };
}

function describe(size: HistorySize): string {
  const chars = size.chars >= 10_000 ? `${(size.chars / 1000).toFixed(1)}k` : String(size.chars);
  return `${size.messages} message${size.messages === 1 ? "" : "s"} (${chars} chars)`;
}

async function compact(request: CommandRequest, host: CommandHost): Promise<CommandOutcome> {
  const store = await sessionStore(request, host);
  if (!store.get(request.sessionKey)) return { text: "Nothing to compact: no session yet." };
  await store.readTranscriptAsync(request.sessionKey); // loaded (PostgreSQL) for the sync reads
  const before = historySize(store, request.sessionKey);
  const instructions = request.args.trim();
  const result = await host.compact({
    agentId: request.agentId,
    sessionKey: request.sessionKey,
    ...(instructions ? { instructions } : {}),
  });
  if (!result.ok) return { text: `Not compacted: ${result.error}` };
  host.announce?.(request.sessionKey, "compact");
  const after = historySize(store, request.sessionKey);
  const note = instructions ? " (summarized with your instructions)" : "";
  return { text: `Compacted: ${describe(before)} → ${describe(after)}${note}.` };
}

/** The state-changing command definitions. */
export const sessionCommands: CommandDefinition[] = [
  {
    name: "new",
    aliases: [],
    args: "[provider/model|alias][@profile]",
    description: "start a new session (the old transcript is archived), on that model if named",
    changesState: true,
    run: reset,
  },
  {
    name: "reset",
    aliases: [],
    description: "same as /new",
    changesState: true,
    run: reset,
  },
  {
    name: "stop",
    aliases: [],
    description: "stop the running turn and drop queued messages",
    changesState: true,
    run: stop,
  },
  {
    name: "compact",
    aliases: [],
    args: "[instructions]",
    description: "summarize the history now to free context",
    changesState: true,
    run: compact,
  },
];
