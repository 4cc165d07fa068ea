// The transcript line format shared with pi-coding-agent and OpenClaw: a `session` header, then entries
// `{type, id, parentId, timestamp, …}` that form a tree. Pure types and helpers, no I/O.

/** Version we write: pi-coding-agent 0.73 writes and reads 3 (short hex ids); OpenClaw 2026.9 writes 4. */
export const TRANSCRIPT_VERSION = 3;
/** Oldest version we append to: v2 introduced ids/parentIds; v1 files need pi's migration first. */
export const MIN_APPENDABLE_VERSION = 2;

/** First line of a transcript. */
export interface TranscriptHeader {
  type: "session";
  version: number;
  /** The session id (a UUID). */
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
  [field: string]: unknown;
}

/** Any entry after the header; `parentId` is null for the first one. Unknown types are kept as is. */
export interface TranscriptEntry {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
  [field: string]: unknown;
}

/** A model-visible message (`role` user, assistant, toolResult, custom, bashExecution, …). */
export interface TranscriptMessage {
  role: string;
  content?: unknown;
  timestamp?: number;
  [field: string]: unknown;
}

/** `type: "message"`. */
export interface MessageEntry extends TranscriptEntry {
  type: "message";
  message: TranscriptMessage;
}

/** `type: "compaction"`: a summary replacing the entries before `firstKeptEntryId`. */
export interface CompactionEntry extends TranscriptEntry {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  fromHook?: boolean;
}

/** `type: "model_change"`. */
export interface ModelChangeEntry extends TranscriptEntry {
  type: "model_change";
  provider: string;
  modelId: string;
}

/** `type: "thinking_level_change"`. */
export interface ThinkingLevelChangeEntry extends TranscriptEntry {
  type: "thinking_level_change";
  thinkingLevel: string;
}

/** `type: "custom"`: extension state, not sent to the model. */
export interface CustomEntry extends TranscriptEntry {
  type: "custom";
  customType: string;
  data?: unknown;
}

/** What a caller appends: id, parentId (default: the leaf) and timestamp are filled in. */
export interface TranscriptEntryInput {
  type: string;
  parentId?: string | null;
  timestamp?: string;
  [field: string]: unknown;
}

/** Builds the header line object for a new transcript. */
export function createTranscriptHeader(params: {
  sessionId: string;
  cwd: string;
  now: number;
  parentSession?: string;
}): TranscriptHeader {
  return {
    type: "session",
    version: TRANSCRIPT_VERSION,
    id: params.sessionId,
    timestamp: new Date(params.now).toISOString(),
    cwd: params.cwd,
    ...(params.parentSession ? { parentSession: params.parentSession } : {}),
  };
}

/** True for a parsed line that is a transcript header. */
export function isTranscriptHeader(value: unknown): value is TranscriptHeader {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "session" &&
    typeof (value as { id?: unknown }).id === "string"
  );
}

/** True for a message entry. */
export function isMessageEntry(entry: TranscriptEntry): entry is MessageEntry {
  const message = (entry as { message?: unknown }).message;
  return entry.type === "message" && typeof message === "object" && message !== null;
}

/**
 * The current branch: entries from the root to `leafId` (default: the last entry, as pi resolves the
 * leaf), following `parentId`. Cycles and dangling parents end the walk.
 */
export function currentBranch(
  entries: readonly TranscriptEntry[],
  leafId?: string | null,
): TranscriptEntry[] {
  const leaf = leafId === undefined ? entries.at(-1)?.id : leafId;
  if (!leaf) return [];
  const byId = new Map<string, TranscriptEntry>();
  for (const entry of entries) byId.set(entry.id, entry);
  const path: TranscriptEntry[] = [];
  const seen = new Set<string>();
  let cursor = byId.get(leaf);
  while (cursor && !seen.has(cursor.id)) {
    seen.add(cursor.id);
    path.push(cursor);
    cursor = cursor.parentId === null ? undefined : byId.get(cursor.parentId);
  }
  return path.reverse();
}

function blockText(block: unknown): string {
  if (typeof block !== "object" || block === null) return "";
  const b = block as { type?: unknown; text?: unknown; thinking?: unknown; name?: unknown };
  if (b.type === "text" && typeof b.text === "string") return b.text;
  if (b.type === "toolCall" && typeof b.name === "string") return `[tool call: ${b.name}]`;
  if (b.type === "image") return "[image]";
  return "";
}

/** Plain text of a message's content (text blocks joined; tool calls and images as markers). */
export function messageText(message: TranscriptMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(blockText).filter(Boolean).join(" ");
  return "";
}

/** One-line description of an entry, for `pincer sessions show`. */
export function describeEntry(entry: TranscriptEntry): { kind: string; text: string } {
  if (isMessageEntry(entry)) {
    const { message } = entry;
    const role =
      message.role === "custom" ? `custom:${String(message.customType ?? "")}` : message.role;
    const tool = message.role === "toolResult" ? `[${String(message.toolName ?? "tool")}] ` : "";
    return { kind: role, text: tool + messageText(message) };
  }
  const e = entry as Record<string, unknown>;
  switch (entry.type) {
    case "model_change":
      return { kind: entry.type, text: `${String(e.provider)}/${String(e.modelId)}` };
    case "thinking_level_change":
      return { kind: entry.type, text: String(e.thinkingLevel) };
    case "compaction":
      return { kind: entry.type, text: `${String(e.tokensBefore)} tokens → ${String(e.summary)}` };
    case "custom":
    case "custom_message":
      return { kind: `${entry.type}:${String(e.customType)}`, text: "" };
    default:
      return { kind: entry.type, text: typeof e.summary === "string" ? e.summary : "" };
  }
}
