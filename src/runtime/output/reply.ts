// The whole output pipeline for a finished assistant reply: reasoning stripped, `<final>` honoured,
// directives taken out, silent replies recognized.
import {
  DEFAULT_SILENT_TOKEN,
  isSilentReply,
  parseReplyDirectives,
  type ReplyDirectives,
} from "./directives.js";
import { extractFinal, stripThinking } from "./thinking.js";

/** A reply ready for delivery; `silent` means nothing should be sent. */
export interface ProcessedReply extends ReplyDirectives {
  silent: boolean;
}

/** Options of {@link processReply}. */
export interface ProcessReplyOptions {
  /** Silent-reply token (default `NO_REPLY`); an empty string disables the check. */
  silentToken?: string;
}

/** Runs stripThinking → extractFinal → parseReplyDirectives → isSilentReply over a reply's text. */
export function processReply(text: string, options: ProcessReplyOptions = {}): ProcessedReply {
  const parsed = parseReplyDirectives(extractFinal(stripThinking(text)));
  const token = options.silentToken ?? DEFAULT_SILENT_TOKEN;
  const silent =
    parsed.media.length === 0 && (parsed.text === "" || isSilentReply(parsed.text, token));
  return { ...parsed, text: silent ? "" : parsed.text, silent };
}
