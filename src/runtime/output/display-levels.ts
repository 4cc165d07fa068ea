// The per-session display settings of replies and where their defaults come from: the usage footer
// (`responseUsage`, default `messages.responseUsage`), tool-call messages (`verboseLevel`, default
// `agents.defaults.verboseDefault`) and reasoning messages (`reasoningLevel`, default off). A stored
// value that is not a known level is ignored (the default applies). They change what a reply shows,
// never what the model gets or what the transcript keeps.

/** Usage footer: none, tokens in/out, or tokens + cache + model + cost. */
export type UsageMode = "off" | "tokens" | "full";
/** Tool-call messages: none, each call, or each call and its result. */
export type VerboseLevel = "off" | "on" | "full";
/** Reasoning messages: never, or before the reply (`stream` is `on` where no draft can be edited). */
export type ReasoningLevel = "off" | "on" | "stream";

/** The values `/usage` accepts, in help order. */
export const USAGE_MODES: readonly UsageMode[] = ["off", "tokens", "full"];

/** The usage mode a stored or configured value names (`on` and `true` mean tokens, `false` off). */
export function usageModeOf(value: unknown): UsageMode | undefined {
  if (value === true || value === "on") return "tokens";
  if (value === false) return "off";
  return typeof value === "string" && (USAGE_MODES as readonly string[]).includes(value)
    ? (value as UsageMode)
    : undefined;
}

function levelOf<T extends string>(value: unknown, levels: readonly T[]): T | undefined {
  return typeof value === "string" && (levels as readonly string[]).includes(value)
    ? (value as T)
    : undefined;
}

/** What the display settings read: the session entry's fields and the config's defaults. */
export interface DisplaySources {
  entry?: { responseUsage?: unknown; verboseLevel?: unknown; reasoningLevel?: unknown } | undefined;
  config: {
    messages?: { responseUsage?: unknown } | undefined;
    agents?: { defaults?: { verboseDefault?: unknown } | undefined } | undefined;
  };
}

/** A session's effective display settings. */
export interface DisplayLevels {
  usage: UsageMode;
  verbose: VerboseLevel;
  reasoning: ReasoningLevel;
}

/** The session's setting where it has one, else the configured default, else off. */
export function resolveDisplayLevels(sources: DisplaySources): DisplayLevels {
  const { entry, config } = sources;
  const verbose = ["off", "on", "full"] as const;
  return {
    usage:
      usageModeOf(entry?.responseUsage) ?? usageModeOf(config.messages?.responseUsage) ?? "off",
    verbose:
      levelOf(entry?.verboseLevel, verbose) ??
      levelOf(config.agents?.defaults?.verboseDefault, verbose) ??
      "off",
    reasoning: levelOf(entry?.reasoningLevel, ["off", "on", "stream"] as const) ?? "off",
  };
}
