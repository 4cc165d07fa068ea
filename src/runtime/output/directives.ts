// Reply directives the model writes inline (`[[media:url]]`, `[[voice]]`, `[[reply:id]]`), OpenClaw's
// `MEDIA:<path-or-url>` lines, and the silent-reply token. Directives inside fenced code blocks are left
// alone (the model may be quoting them). Media references are only collected here: which local files
// may really be attached is decided at delivery (channels/delivery/media-policy.ts).

/** A reply with its directives taken out. */
export interface ReplyDirectives {
  text: string;
  media: string[];
  voice: boolean;
  replyTo?: string;
}

/** The silent-reply token the system prompt tells the model to use. */
export const DEFAULT_SILENT_TOKEN = "NO_REPLY";

const DIRECTIVE =
  /([ \t]*)\[\[\s*(media|voice|audio_as_voice|reply|reply_to)\s*(?::\s*([^\]\n]*?))?\s*\]\]([ \t]*)/gi;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;
/** A whole line `MEDIA: <ref>` (the ref optionally in backticks or quotes). */
const MEDIA_LINE = /^\s*MEDIA:\s*(.+?)\s*$/;
/** What a MEDIA line's ref must look like: a URL with a scheme, or a path (`/`, `./`, `../`, `~`). */
const MEDIA_REF = /^(?:[a-z][a-z0-9+.-]*:\/\/|\/|\.{1,2}\/|~)/i;

/** The ref of a `MEDIA:` line, or undefined when the line is prose that merely starts so. */
function mediaLineRef(line: string): string | undefined {
  const raw = MEDIA_LINE.exec(line)?.[1];
  if (!raw) return undefined;
  const quoted = /^([`"'])(.*)\1$/.exec(raw);
  const ref = (quoted ? quoted[2]! : raw).trim();
  return ref !== "" && !/\s/.test(ref) && MEDIA_REF.test(ref) ? ref : undefined;
}

/** Splits text into alternating prose / fenced-code segments (code segments include their fences). */
function segments(text: string): Array<{ code: boolean; text: string }> {
  const out: Array<{ code: boolean; text: string }> = [];
  let current: string[] = [];
  let fence: string | undefined;
  const push = (code: boolean) => {
    if (current.length > 0) out.push({ code, text: current.join("\n") });
    current = [];
  };
  for (const line of text.split("\n")) {
    const marker = FENCE_LINE.exec(line)?.[1];
    if (!fence && marker) {
      push(false);
      fence = marker;
      current.push(line);
    } else if (fence && marker && marker[0] === fence[0] && marker.length >= fence.length) {
      current.push(line);
      push(true);
      fence = undefined;
    } else {
      current.push(line);
    }
  }
  push(fence !== undefined);
  return out;
}

/**
 * Takes `[[media:url]]`, `MEDIA:` lines, `[[voice]]` and `[[reply:id]]` out of a reply (aliases
 * `[[reply_to:id]]`, `[[audio_as_voice]]`); media keep their order of appearance.
 */
export function parseReplyDirectives(text: string): ReplyDirectives {
  const media: string[] = [];
  let voice = false;
  let replyTo: string | undefined;
  const directive = (
    whole: string,
    before: string,
    name: string,
    value: string | undefined,
    after: string,
  ): string => {
    const kind = name.toLowerCase();
    const arg = value?.trim() ?? "";
    if (kind === "media") {
      if (!arg) return whole;
      media.push(arg);
    } else if (kind === "voice" || kind === "audio_as_voice") {
      voice = true;
    } else {
      if (!arg) return whole;
      replyTo ??= arg;
    }
    return before && after ? " " : "";
  };
  const cleaned = segments(text).map((segment) => {
    if (segment.code) return segment.text;
    const lines: string[] = [];
    for (const line of segment.text.split("\n")) {
      const ref = mediaLineRef(line);
      if (ref === undefined) lines.push(line.replace(DIRECTIVE, directive));
      else media.push(ref);
    }
    return lines.join("\n").replace(/\n{3,}/g, "\n\n");
  });
  return { text: cleaned.join("\n").trim(), media, voice, ...(replyTo ? { replyTo } : {}) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function silentPattern(token: string): RegExp {
  return new RegExp(`^[\\s\\p{P}\\p{S}]*${escapeRegExp(token)}[\\s\\p{P}\\p{S}]*$`, "iu");
}

/** The default token's pattern, compiled once (a Unicode-property regex costs tens of µs to build). */
const DEFAULT_SILENT_PATTERN = silentPattern(DEFAULT_SILENT_TOKEN);

/** True when the whole reply is the silent token (trimmed; surrounding punctuation, quotes or markdown ok). */
export function isSilentReply(text: string, token = DEFAULT_SILENT_TOKEN): boolean {
  if (!token) return false;
  const pattern = token === DEFAULT_SILENT_TOKEN ? DEFAULT_SILENT_PATTERN : silentPattern(token);
  return pattern.test(text);
}

/** True while streamed text could still turn out to be the silent token (hold it back until it can't). */
export function isSilentReplyPrefix(text: string, token = DEFAULT_SILENT_TOKEN): boolean {
  if (!token) return false;
  const body = text.replace(/^[\s\p{P}\p{S}]*/u, "");
  if (body === "") return true;
  if (isSilentReply(text, token)) return true;
  return token.toLowerCase().startsWith(body.toLowerCase());
}
