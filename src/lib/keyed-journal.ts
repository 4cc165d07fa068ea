// A durable JSONL journal of keyed work items: an item is `accepted` (pending) and later `settled` with
// its outcome. One write per line on a kept fd; `accept` and `settle` resolve once the line is fsynced
// (group commit: callers waiting at the same time share one fsync). Loading skips torn and corrupt
// lines; a compaction rewrites the file atomically with the pending items and the settled ones the
// retention keeps (newest `maxSettled`, none older than `maxSettledAgeMs`), so the file stays bounded.
import {
  closeSync,
  existsSync,
  fsync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import { fsyncDirSync, writeWholeSync } from "./durable-io.js";
import type { Logger } from "./logger.js";

/** One item as the journal holds it: its key, when its last line was written, and its payload. */
export interface JournalItem<T> {
  key: string;
  ts: number;
  data: T;
}

/** Options of {@link openKeyedJournal}. */
export interface KeyedJournalOptions<P, S> {
  path: string;
  /** Validates a stored `accepted` payload; undefined: the line is skipped as corrupt. */
  readPending: (value: unknown) => P | undefined;
  /** Validates a stored `settled` payload; undefined: the line is skipped as corrupt. */
  readSettled: (value: unknown) => S | undefined;
  /** Names the journal in its log lines (`turn journal: …`). */
  name: string;
  logger: Logger;
  now?: () => number;
  /** Compact once the file passes this size (default 4 MiB). */
  maxBytes?: number;
  /** Settled items kept (newest first) for deduplication. */
  maxSettled: number;
  /** Settled items older than this are dropped (default: kept until `maxSettled` pushes them out). */
  maxSettledAgeMs?: number;
}

/** The open journal. */
export interface KeyedJournal<P, S> {
  readonly path: string;
  /** Accepted items not settled yet, oldest first. */
  pending(): JournalItem<P>[];
  /** Settled items still retained, oldest first. */
  settled(): JournalItem<S>[];
  /** Records `key` as pending (a pending key gets the new payload); resolves once it is on disk.
   *  Rejects when the line cannot be written or synced: the caller must not acknowledge the item. */
  accept(key: string, data: P): Promise<void>;
  /** Replaces the payload of a key that is still pending (a settled or unknown key is left alone:
   *  false). Written at once (it survives a kill -9) but fsynced only with the next durable write:
   *  for progress marks that are not worth an fsync of their own. Throws if the line cannot be
   *  written. */
  update(key: string, data: P): boolean;
  /** Records the outcome of a pending key; resolves true once it is on disk, false when the key is
   *  not pending or the journal is closed (the item then stays pending for the next start). */
  settle(key: string, data: S): Promise<boolean>;
  /** Waits for a sync in flight, fsyncs and closes; later calls are refused or ignored. */
  close(): Promise<void>;
}

/** Default size that triggers a compaction. */
export const KEYED_JOURNAL_MAX_BYTES = 4 * 1024 * 1024;

type Line =
  | { type: "accepted"; key: string; ts: number; data: unknown }
  | { type: "settled"; key: string; ts: number; data: unknown };

interface Loaded<P, S> {
  pending: Map<string, JournalItem<P>>;
  settled: Map<string, JournalItem<S>>;
  torn: number;
  bytes: number;
}

function parseLine(text: string): Line | undefined {
  try {
    const value = JSON.parse(text) as Partial<Line> | null;
    if (typeof value?.key !== "string" || typeof value.ts !== "number") return undefined;
    if (value.type === "accepted" || value.type === "settled") return value as Line;
  } catch {
    // A line cut by a crash mid-write: the caller counts it and the next compaction drops it.
  }
  return undefined;
}

function load<P, S>(options: KeyedJournalOptions<P, S>): Loaded<P, S> {
  const loaded: Loaded<P, S> = { pending: new Map(), settled: new Map(), torn: 0, bytes: 0 };
  if (!existsSync(options.path)) return loaded;
  const text = readFileSync(options.path, "utf8");
  loaded.bytes = Buffer.byteLength(text);
  const lines = text.split("\n");
  // A last line without its newline is torn even when it parses: the next append would join it.
  if (lines.pop() !== "") loaded.torn += 1;
  for (const raw of lines) {
    if (!raw.trim()) continue;
    const line = parseLine(raw);
    const pending = line?.type === "accepted" ? options.readPending(line.data) : undefined;
    const settled = line?.type === "settled" ? options.readSettled(line.data) : undefined;
    if (!line || (pending === undefined && settled === undefined)) {
      loaded.torn += 1;
      continue;
    }
    if (pending !== undefined) {
      loaded.settled.delete(line.key);
      loaded.pending.set(line.key, { key: line.key, ts: line.ts, data: pending });
    } else if (settled !== undefined) {
      loaded.pending.delete(line.key);
      loaded.settled.delete(line.key);
      loaded.settled.set(line.key, { key: line.key, ts: line.ts, data: settled });
    }
  }
  return loaded;
}

/** Opens (creating, repairing or compacting as needed) the journal at `options.path`. */
export function openKeyedJournal<P, S>(options: KeyedJournalOptions<P, S>): KeyedJournal<P, S> {
  const { path } = options;
  const now = options.now ?? Date.now;
  const maxBytes = options.maxBytes ?? KEYED_JOURNAL_MAX_BYTES;
  const loaded = load(options);
  const { pending, settled } = loaded;
  let size = loaded.bytes;
  let threshold = maxBytes;
  let fd: number | undefined;
  // Bytes appended since open (monotonic) and how many of them an fsync covers.
  let appended = 0;
  let synced = 0;
  let syncing: Promise<void> | undefined;
  let compactDue = false;
  let closed = false;

  const retain = () => {
    const age = options.maxSettledAgeMs;
    const cutoff = age === undefined ? Number.NEGATIVE_INFINITY : now() - age;
    for (const [key, item] of settled) {
      if (settled.size > options.maxSettled || item.ts < cutoff) settled.delete(key);
      else break;
    }
  };
  const openFd = () => {
    const fresh = !existsSync(path);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    fd = openSync(path, "a", 0o600);
    if (fresh) fsyncDirSync(dirname(path));
  };
  const compact = () => {
    retain();
    const lines = [
      ...[...settled.values()].map((item) => ({ type: "settled", ...item })),
      ...[...pending.values()].map((item) => ({ type: "accepted", ...item })),
    ].map((line) => `${JSON.stringify(line)}\n`);
    const text = lines.join("");
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    writeFileAtomic(path, text);
    size = Buffer.byteLength(text);
    synced = appended;
    // Large pending items must not make every append compact again.
    threshold = Math.max(maxBytes, size * 2);
    openFd();
  };
  // The fd must not be swapped under an fsync in flight: compaction waits for it.
  const compactWhenIdle = () => {
    if (!compactDue || syncing || closed) return;
    compactDue = false;
    compact();
  };
  const append = (line: Line) => {
    if (closed || fd === undefined) throw new Error(`journal ${path} is closed`);
    const bytes = writeWholeSync(fd, `${JSON.stringify(line)}\n`);
    size += bytes;
    appended += bytes;
    if (size > threshold) compactDue = true;
    return appended;
  };
  const durable = async (target: number) => {
    while (synced < target) {
      if (fd === undefined) throw new Error(`journal ${path} closed before its write was synced`);
      if (!syncing) {
        const goal = appended;
        const handle = fd;
        syncing = new Promise<void>((resolve, reject) =>
          fsync(handle, (err) => (err ? reject(err) : resolve())),
        )
          .then(() => {
            synced = Math.max(synced, goal);
          })
          .finally(() => {
            syncing = undefined;
            compactWhenIdle();
          });
      }
      await syncing;
    }
    compactWhenIdle();
  };

  if (loaded.torn > 0) {
    options.logger.warn(
      { path, torn: loaded.torn },
      `${options.name}: torn or corrupt lines skipped`,
    );
    compact();
  } else if (size > maxBytes) compact();
  else openFd();

  return {
    path,
    pending: () => [...pending.values()],
    settled: () => {
      retain();
      return [...settled.values()];
    },
    async accept(key, data) {
      const ts = now();
      const target = append({ type: "accepted", key, ts, data });
      settled.delete(key);
      pending.set(key, { key, ts, data });
      await durable(target);
    },
    update(key, data) {
      if (closed || !pending.has(key)) return false;
      const ts = now();
      append({ type: "accepted", key, ts, data });
      pending.set(key, { key, ts, data });
      compactWhenIdle();
      return true;
    },
    async settle(key, data) {
      if (closed || !pending.has(key)) return false;
      const ts = now();
      const target = append({ type: "settled", key, ts, data });
      pending.delete(key);
      settled.set(key, { key, ts, data });
      retain();
      await durable(target);
      return true;
    },
    async close() {
      if (closed) return;
      closed = true;
      // A failed sync in flight was already reported to the caller waiting on it.
      while (syncing) await Promise.allSettled([syncing]);
      if (fd === undefined) return;
      fsyncSync(fd);
      synced = appended;
      closeSync(fd);
      fd = undefined;
    },
  };
}
