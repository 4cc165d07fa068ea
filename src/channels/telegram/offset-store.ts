// The long-poll position of one bot, kept at `<stateDir>/channels/telegram/<accountId>/update-offset.json`
// so a restart neither loses nor replays updates. Written atomically after each accepted update; the
// bot id guards against a token swapped for another bot (whose update ids mean nothing here).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomicAsync } from "../../lib/atomic-write.js";

/** What the offset file holds. */
export interface StoredOffset {
  version: 1;
  botId: string;
  /** The last update whose `receive` resolved; polling resumes at `lastUpdateId + 1`. */
  lastUpdateId: number;
}

/** Where an account keeps its Telegram state. */
export function telegramStateDir(stateDir: string, accountId: string): string {
  return join(stateDir, "channels", "telegram", accountId);
}

/** Path of the offset file of one account. */
export function offsetFilePath(stateDir: string, accountId: string): string {
  return join(telegramStateDir(stateDir, accountId), "update-offset.json");
}

/** Outcome of reading the offset file: absent, read, or unreadable (reason for the log). */
export type ReadOffsetResult =
  | { kind: "missing" }
  | { kind: "ok"; offset: StoredOffset }
  | { kind: "invalid"; reason: string };

/** Reads the offset file; a missing file is normal on first start. */
export async function readStoredOffset(path: string): Promise<ReadOffsetResult> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    return { kind: "invalid", reason: (err as Error).message };
  }
  try {
    const value = JSON.parse(text) as Partial<StoredOffset>;
    if (
      value.version !== 1 ||
      typeof value.botId !== "string" ||
      typeof value.lastUpdateId !== "number" ||
      !Number.isInteger(value.lastUpdateId)
    ) {
      return { kind: "invalid", reason: "unexpected shape" };
    }
    return { kind: "ok", offset: value as StoredOffset };
  } catch (err) {
    return { kind: "invalid", reason: `not JSON: ${(err as Error).message}` };
  }
}

/** Atomically records the last accepted update. */
export async function writeStoredOffset(path: string, offset: StoredOffset): Promise<void> {
  await writeFileAtomicAsync(path, `${JSON.stringify(offset)}\n`);
}
