// The per-session override commands: /think shows or sets the session's thinking level (stored in
// its session entry, sent to the model by every later run). A value that is not a level is refused
// with the valid ones named, and nothing is stored.
import { isThinkingLevel, THINKING_LEVELS } from "../../runtime/run/session-overrides.js";
import type { SessionEntry, SessionStore } from "../../sessions/index.js";
import type { CommandDefinition, CommandHost, CommandOutcome, CommandRequest } from "./types.js";

/** The word that clears an override (the agent's default applies again). */
const CLEAR_WORD = "default";

async function sessionStore(request: CommandRequest, host: CommandHost): Promise<SessionStore> {
  return (await host.runtimeDeps()).stores.forAgent(request.agentId);
}

/** Stores `changes` on the session's entry (created when the session has none yet). */
export function storeOverride(
  store: SessionStore,
  sessionKey: string,
  changes: Partial<SessionEntry>,
): Readonly<SessionEntry> {
  store.getOrCreate(sessionKey);
  return store.annotate(sessionKey, changes);
}

async function think(request: CommandRequest, host: CommandHost): Promise<CommandOutcome> {
  const store = await sessionStore(request, host);
  const valid = `${THINKING_LEVELS.join(", ")} (or ${CLEAR_WORD})`;
  const arg = request.args.trim().toLowerCase();
  if (!arg) {
    const current = store.get(request.sessionKey)?.thinkingLevel;
    return { text: `Thinking level: ${current ?? "default"}. Set it with /think <${valid}>.` };
  }
  if (arg === CLEAR_WORD) {
    storeOverride(store, request.sessionKey, { thinkingLevel: undefined });
    host.announce?.(request.sessionKey, "patch");
    return { text: "Thinking level cleared: the model's default applies." };
  }
  if (!isThinkingLevel(arg)) {
    return { text: `Unknown thinking level "${request.args.trim()}". Valid: ${valid}.` };
  }
  storeOverride(store, request.sessionKey, { thinkingLevel: arg });
  host.announce?.(request.sessionKey, "patch");
  return { text: `Thinking level set to ${arg} for this session.` };
}

/** The override command definitions. */
export const overrideCommands: CommandDefinition[] = [
  {
    name: "think",
    aliases: ["thinking"],
    args: `[${THINKING_LEVELS.join("|")}]`,
    description: "show or set this session's thinking level",
    changesState: true,
    run: think,
  },
];
