// Step 3 of the inbound pipeline: in groups a message triggers a run only when the bot is mentioned
// (native mention or one of the routed agent's `groupChat.mentionPatterns`), unless `requireMention`
// is false. Self-chat (the account's own messages) triggers only on mention patterns.
import { findAgent, resolveRoster } from "../../config/resolve.js";
import type { ChannelGroup, OpenClawConfig } from "../../protocol/config/index.js";
import type { ChannelAccountConfig, ChannelInbound } from "../types.js";

/** A message either triggers a run or is only kept as group context. */
export type MentionVerdict = "trigger" | "context";

function strings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : [];
}

/** Compiles patterns (case-insensitive); invalid ones are returned separately, not thrown. */
export function compileMentionPatterns(patterns: readonly string[]): {
  regexes: RegExp[];
  invalid: string[];
} {
  const regexes: RegExp[] = [];
  const invalid: string[] = [];
  for (const pattern of patterns) {
    try {
      regexes.push(new RegExp(pattern, "i"));
    } catch {
      invalid.push(pattern);
    }
  }
  return { regexes, invalid };
}

/** {@link compileMentionPatterns} with memory: each pattern source is compiled once per host, and
 *  `invalid` lists only patterns not reported before (so a bad pattern is logged once). */
export type MentionPatternCompiler = (patterns: readonly string[]) => {
  regexes: RegExp[];
  invalid: string[];
};

/** A memoizing {@link MentionPatternCompiler}; bounded, since config reloads may bring new patterns. */
export function createMentionPatternCompiler(maxEntries = 512): MentionPatternCompiler {
  const compiled = new Map<string, RegExp | null>();
  return (patterns) => {
    const regexes: RegExp[] = [];
    const invalid: string[] = [];
    for (const pattern of patterns) {
      let regex = compiled.get(pattern);
      if (regex === undefined) {
        if (compiled.size >= maxEntries) compiled.clear();
        const result = compileMentionPatterns([pattern]);
        regex = result.regexes[0] ?? null;
        compiled.set(pattern, regex);
        if (!regex) invalid.push(pattern);
      }
      if (regex) regexes.push(regex);
    }
    return { regexes, invalid };
  };
}

/** The mention patterns of an agent in a conversation: the agent's `groupChat.mentionPatterns`
 * (else `messages.groupChat.mentionPatterns`), plus the channel's and the group's own. */
export function resolveMentionPatterns(params: {
  cfg: OpenClawConfig;
  agentId: string;
  config: ChannelAccountConfig;
  group?: ChannelGroup;
}): string[] {
  const { cfg, agentId } = params;
  // The resolved roster's entry (`agents.entries` / `agents.list`, ids normalized).
  const agent = findAgent(resolveRoster(cfg), agentId);
  const own = strings(agent?.entry.groupChat?.mentionPatterns);
  const global = strings(cfg.messages?.groupChat?.mentionPatterns);
  return [
    ...(own.length > 0 ? own : global),
    ...strings(params.config.mentionPatterns),
    ...strings(params.group?.mentionPatterns),
  ];
}

/** Inputs of {@link gateMention}. */
export interface GateMentionParams {
  message: ChannelInbound;
  config: ChannelAccountConfig;
  group?: ChannelGroup;
  patterns: readonly RegExp[];
  /** False skips gating (a broadcast group with `mentionGating: false`). */
  gating?: boolean;
}

/** Whether the message triggers a run or is context only. */
export function gateMention(params: GateMentionParams): MentionVerdict {
  const { message, config, group, patterns } = params;
  const matchesPattern = patterns.some((regex) => regex.test(message.text));
  if (message.fromSelf) return matchesPattern ? "trigger" : "context";
  if (message.peer.kind === "direct" || params.gating === false) return "trigger";
  const required =
    (typeof group?.requireMention === "boolean" ? group.requireMention : undefined) ??
    (typeof config.requireMention === "boolean" ? config.requireMention : undefined) ??
    true;
  if (!required) return "trigger";
  return message.mentionedSelf || matchesPattern ? "trigger" : "context";
}
