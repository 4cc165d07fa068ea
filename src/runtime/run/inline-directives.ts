// Directives inside a message: a message that opens with `/think <level>` (or `/thinking`) and goes
// on with text runs that one turn at that thinking level and sends the model only the text after
// it; the session's stored level is untouched. A bare `/think <level>` is the chat command instead
// (it stores the level), and an unknown level leaves the message as it is.
import type { ThinkingLevel } from "@mariozechner/pi-agent-core";
import { isThinkingLevel } from "./session-overrides.js";

const THINK_DIRECTIVE = /^\s*\/think(?:ing)?:?\s+(\S+)\s+(\S[\s\S]*)$/i;

/** The message's text without its leading thinking directive, and that directive's level. */
export interface InlineDirectives {
  message: string;
  thinkingLevel?: ThinkingLevel;
}

/** Takes a leading `/think <level> <text>` directive off `message` (unchanged when there is none). */
export function takeInlineDirectives(message: string): InlineDirectives {
  const match = THINK_DIRECTIVE.exec(message);
  const level = match?.[1]?.toLowerCase();
  if (!match || !isThinkingLevel(level)) return { message };
  return { message: match[2]!.trimEnd(), thinkingLevel: level };
}
