// The session display commands: /verbose (tool-call messages), /reasoning (the model's reasoning as
// a message before the reply) and /usage (a usage footer on every reply). Each stores one field of
// the session entry that the next turn's replies follow; alone, it shows the value in effect (the
// session's, else the configured default) and what it does; `default` clears it; an unknown value
// is refused with the valid ones named, and nothing is stored.
import { type DisplayLevels, resolveDisplayLevels } from "../../runtime/output/index.js";
import type { SessionEntry } from "../../sessions/index.js";
import { storeOverride } from "./override-commands.js";
import type { CommandDefinition, CommandHost, CommandOutcome, CommandRequest } from "./types.js";

const CLEAR_WORD = "default";

/** One display setting: its command, entry field, values and what each makes replies do. */
interface DisplaySetting {
  name: string;
  field: "verboseLevel" | "reasoningLevel" | "responseUsage";
  label: string;
  values: readonly string[];
  /** Words stored as another value (`/usage on` is tokens). */
  aliases?: Readonly<Record<string, string>>;
  level: (levels: DisplayLevels) => string;
  /** What replies do at each value, as the end of a sentence. */
  effect: Readonly<Record<string, string>>;
  description: string;
}

/** A command that stores one display setting. */
function displayCommand(setting: DisplaySetting): CommandDefinition {
  const valid = `${setting.values.join(", ")} (or ${CLEAR_WORD})`;
  const run = async (request: CommandRequest, host: CommandHost): Promise<CommandOutcome> => {
    const deps = await host.runtimeDeps();
    const store = deps.stores.forAgent(request.agentId);
    const inEffect = (entry: Readonly<SessionEntry> | undefined) =>
      setting.level(resolveDisplayLevels({ entry, config: deps.config.config }));
    const arg = request.args.trim().toLowerCase();
    if (!arg) {
      const entry = store.get(request.sessionKey);
      const level = inEffect(entry);
      const source = entry?.[setting.field] === undefined ? "default" : "this session";
      return {
        text: `${setting.label}: ${level} (${source}): ${setting.effect[level]}. Set it with /${setting.name} <${valid}>.`,
      };
    }
    const value = setting.aliases?.[arg] ?? arg;
    if (arg !== CLEAR_WORD && !setting.values.includes(value)) {
      return { text: `Unknown ${setting.name} level "${request.args.trim()}". Valid: ${valid}.` };
    }
    const stored = arg === CLEAR_WORD ? undefined : value;
    const entry = storeOverride(store, request.sessionKey, { [setting.field]: stored });
    host.announce?.(request.sessionKey, "patch");
    if (stored) {
      return {
        text: `${setting.label} set to ${stored} for this session: ${setting.effect[stored]}.`,
      };
    }
    const level = inEffect(entry);
    return {
      text: `${setting.label} cleared: the default applies (${level}: ${setting.effect[level]}).`,
    };
  };
  return {
    name: setting.name,
    aliases: [],
    args: `[${setting.values.join("|")}]`,
    description: setting.description,
    changesState: true,
    run,
  };
}

/** The display command definitions. */
export const displayCommands: CommandDefinition[] = [
  displayCommand({
    name: "verbose",
    field: "verboseLevel",
    label: "Verbose",
    values: ["on", "off", "full"],
    level: (levels) => levels.verbose,
    effect: {
      off: "replies come without tool messages",
      on: "each tool call is sent here as a short message before the reply",
      full: "each tool call and its result (truncated) are sent here as short messages before the reply",
    },
    description: "show or set whether this session's tool calls are shown as messages",
  }),
  displayCommand({
    name: "reasoning",
    field: "reasoningLevel",
    label: "Reasoning",
    values: ["on", "off", "stream"],
    level: (levels) => levels.reasoning,
    effect: {
      off: "the model's reasoning is never shown",
      on: "when the model returns reasoning, it is sent as a separate message before the reply",
      stream:
        "the reasoning is not streamed live (this chat cannot edit a draft), so it is sent as a separate message before the reply, as with on",
    },
    description: "show or set whether this session's replies show the model's reasoning",
  }),
  displayCommand({
    name: "usage",
    field: "responseUsage",
    label: "Usage footer",
    values: ["off", "tokens", "full"],
    aliases: { on: "tokens" },
    level: (levels) => levels.usage,
    effect: {
      off: "replies come without a usage footer",
      tokens: "each reply ends with the turn's tokens in and out",
      full: "each reply ends with the turn's tokens in and out, cache read and write, the model and its cost (when the model has a cost table)",
    },
    description: "show or set the usage footer on this session's replies",
  }),
];
