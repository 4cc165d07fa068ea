// Bundled hook `session-memory`: on `/new`, before the session is reset, saves the end of the old
// conversation (its last `messages` user/assistant lines, default 15, as OpenClaw) to
// `<workspace>/memory/YYYY-MM-DD-HHMM.md` in OpenClaw's format (a `# Session:` header, the session key,
// id and source, then `## Conversation Summary`). OpenClaw asks a model for a descriptive slug; Pincer
// uses OpenClaw's fallback name (the UTC time), so /new never waits for a model.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { InternalHookEvent } from "../types.js";
import { type BundledHook, bundledMetadata } from "./types.js";

/** Lines kept when `hooks.internal.entries.session-memory.messages` is unset. */
export const DEFAULT_MEMORY_MESSAGES = 15;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      part && typeof part === "object" && (part as { type?: unknown }).type === "text"
        ? String((part as { text?: unknown }).text ?? "")
        : "",
    )
    .filter((text) => text !== "")
    .join("\n");
}

/** The last `limit` user/assistant lines of a transcript (JSONL text); slash commands left out. */
export function recentConversation(jsonl: string, limit: number): string[] {
  const lines: string[] = [];
  for (const line of jsonl.split("\n")) {
    if (!line.trim()) continue;
    let entry: { type?: unknown; message?: { role?: unknown; content?: unknown } };
    try {
      entry = JSON.parse(line);
    } catch (err) {
      // A torn last line (a crash mid-append) is not conversation: skipped.
      void err;
      continue;
    }
    const role = entry.message?.role;
    if (entry.type !== "message" || (role !== "user" && role !== "assistant")) continue;
    const text = textOf(entry.message?.content).trim();
    if (!text || (role === "user" && text.startsWith("/"))) continue;
    lines.push(`${role}: ${text}`);
  }
  return lines.slice(-limit);
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** `YYYY-MM-DD` and `HHMM` of a date, in UTC. */
function stamp(date: Date): { day: string; time: string; full: string } {
  const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const clock = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return { day, time: clock.slice(0, 5).replace(":", ""), full: `${day} ${clock}` };
}

/** The memory file's text for an event and its conversation lines. */
export function memoryFileText(event: InternalHookEvent, lines: readonly string[]): string {
  const entry = event.context.sessionEntry as { sessionId?: unknown } | undefined;
  const sessionId = typeof entry?.sessionId === "string" ? entry.sessionId : "unknown";
  const source =
    typeof event.context.commandSource === "string" ? event.context.commandSource : "unknown";
  return [
    `# Session: ${stamp(event.timestamp).full} UTC`,
    "",
    `- **Session Key**: ${event.sessionKey}`,
    `- **Session ID**: ${sessionId}`,
    `- **Source**: ${source}`,
    "",
    "## Conversation Summary",
    "",
    ...lines,
    "",
  ].join("\n");
}

/** A free file name in `dir` for the event's date (`-2`, `-3`, … when taken). */
function freeName(dir: string, date: Date): string {
  const { day, time } = stamp(date);
  const base = `${day}-${time}`;
  for (let n = 1; ; n++) {
    const name = n === 1 ? `${base}.md` : `${base}-${n}.md`;
    if (!existsSync(join(dir, name))) return name;
  }
}

function messageLimit(options: unknown): number {
  const value = (options as { messages?: unknown } | undefined)?.messages;
  return typeof value === "number" && Number.isInteger(value) && value > 0
    ? value
    : DEFAULT_MEMORY_MESSAGES;
}

/** The hook. */
export const sessionMemoryHook: BundledHook = {
  metadata: {
    ...bundledMetadata({
      name: "session-memory",
      description: "Save session context to memory when /new command is issued",
      emoji: "💾",
      events: ["command:new"],
    }),
    requires: { bins: [], anyBins: [], env: [], config: ["workspace.dir"] },
  },
  create: (services) => (event) => {
    if (event.type !== "command" || event.action !== "new") return;
    const workspace = event.context.workspaceDir;
    const file = (event.context.sessionEntry as { sessionFile?: unknown } | undefined)?.sessionFile;
    if (typeof workspace !== "string" || typeof file !== "string" || !existsSync(file)) return;
    const cfg = services.config().config;
    const options = cfg.hooks?.internal?.entries?.["session-memory"];
    const lines = recentConversation(readFileSync(file, "utf8"), messageLimit(options));
    if (lines.length === 0) return;
    const dir = join(workspace, "memory");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, freeName(dir, event.timestamp));
    writeFileSync(path, memoryFileText(event, lines), { flag: "wx" });
    services.logger.info({ path, sessionKey: event.sessionKey }, "session-memory: session saved");
  },
};
