// Unmentioned group messages kept as context: bounded per group, prepended to the next message of that
// group that triggers a run, then cleared. In memory only (as OpenClaw's group history).
import type { OpenClawConfig } from "../../protocol/config/index.js";
import type { ChannelAccountConfig } from "../types.js";

/** OpenClaw's default number of context messages per group. */
export const DEFAULT_GROUP_HISTORY_LIMIT = 50;
/** Header of the context block. */
export const HISTORY_HEADER = "[Chat messages since your last reply - for context]";
/** Header of the triggering message after a context block. */
export const CURRENT_HEADER = "[Current message - respond to this]";

/** One kept message. */
export interface GroupHistoryEntry {
  sender: string;
  body: string;
  timestamp: number;
}

/** Context buffers keyed by `buildGroupHistoryKey` (`<channel>:<account>:<kind>:<peer>`). */
export interface GroupHistory {
  record(key: string, entry: GroupHistoryEntry, limit: number): void;
  /** Returns and clears a group's context. */
  take(key: string): GroupHistoryEntry[];
  readonly groups: number;
}

/** The history limit: group's, channel/account's, `messages.groupChat.historyLimit`, else 50. */
export function resolveHistoryLimit(params: {
  cfg: OpenClawConfig;
  config: ChannelAccountConfig;
  group?: { historyLimit?: number };
}): number {
  const candidates = [
    params.group?.historyLimit,
    params.config.historyLimit,
    params.cfg.messages?.groupChat?.historyLimit,
  ];
  const found = candidates.find((value): value is number => typeof value === "number");
  return Math.max(0, found ?? DEFAULT_GROUP_HISTORY_LIMIT);
}

/** Creates the (empty) group history. */
export function createGroupHistory(): GroupHistory {
  const buffers = new Map<string, GroupHistoryEntry[]>();
  return {
    record(key, entry, limit) {
      if (limit <= 0) return;
      const buffer = buffers.get(key) ?? [];
      buffer.push(entry);
      if (buffer.length > limit) buffer.splice(0, buffer.length - limit);
      buffers.set(key, buffer);
    },
    take(key) {
      const buffer = buffers.get(key) ?? [];
      buffers.delete(key);
      return buffer;
    },
    get groups() {
      return buffers.size;
    },
  };
}

/** The prompt body with the kept context first (unchanged when there is none). */
export function prependHistory(entries: readonly GroupHistoryEntry[], body: string): string {
  if (entries.length === 0) return body;
  const lines = entries.map((entry) => `${entry.sender}: ${entry.body}`);
  return [HISTORY_HEADER, ...lines, "", CURRENT_HEADER, body].join("\n");
}
