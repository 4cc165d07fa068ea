// The durable inbound journal: every message is recorded (`accepted`) before `receive` resolves and
// again (`settled`) once its fate is final, in `<stateDir>/channels/inbound-journal.jsonl`. After a
// crash or restart the host seeds the dedupe with every key and re-submits what was never settled, so
// a channel neither loses nor doubles a message. One `write` per line on a kept fd (no fsync per line:
// the page cache survives kill -9). For a power loss, `sync()` fsyncs the file: adapters call it
// (through `syncInbound`) right before they persist a platform offset, and settled lines are fsynced
// within `syncDelayMs` (1 s) of being written. Compaction rewrites the file atomically when it grows.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../../lib/atomic-write.js";
import { writeWholeSync } from "../../lib/durable-io.js";
import type { ChannelInbound, Logger } from "../types.js";
import { DEDUPE_MAX } from "./redelivery-filter.js";

/** How a message's fate ended: answered, refused by policy, kept as group context, dropped (and
 *  reported), its reply failed (and was recorded), or its run failed. */
export type InboundSettlement =
  | "replied"
  | "refused"
  | "context"
  | "dropped"
  | "delivery-failed"
  | "delivery-queued"
  | "run-failed";

/** One journal line. `accepted` carries the normalized message without `raw`. */
export type InboundJournalRecord =
  | { type: "accepted"; key: string; ts: number; inbound: ChannelInbound }
  | { type: "settled"; key: string; ts: number; outcome: InboundSettlement };

/** An accepted message whose fate is not final yet. */
export interface PendingInbound {
  key: string;
  inbound: ChannelInbound;
}

/** The open journal. */
export interface InboundJournal {
  readonly path: string;
  /** Every key the journal knows (kept settled ones, then pending), oldest first: seeds the dedupe. */
  keys(): string[];
  /** Accepted messages not settled yet, oldest first (what a restart re-submits). */
  pending(): PendingInbound[];
  /** Records a message as accepted (before `receive` resolves); throws if the line cannot be written,
   *  so the adapter does not acknowledge it. */
  accept(key: string, inbound: ChannelInbound): void;
  /** Records a pending message's final fate; unknown or already settled keys are ignored. */
  settle(key: string, outcome: InboundSettlement): void;
  /** Makes every line written so far durable (fsync); a no-op once closed. */
  sync(): void;
  /** Flushes to disk and closes; later `settle` calls are ignored (those messages replay next start). */
  close(): void;
}

/** Options of {@link openInboundJournal}. */
export interface InboundJournalOptions {
  stateDir: string;
  log: Logger;
  now?: () => number;
  /** Compact once the file passes this size (default 4 MiB). */
  maxBytes?: number;
  /** Settled keys kept by a compaction for the dedupe (default and minimum: the dedupe window). */
  keepSettled?: number;
  /** Longest time a settled line stays without fsync (default 1 s). */
  syncDelayMs?: number;
}

/** Default size that triggers a compaction. */
export const JOURNAL_MAX_BYTES = 4 * 1024 * 1024;

/** Path of the journal. */
export function inboundJournalPath(stateDir: string): string {
  return join(stateDir, "channels", "inbound-journal.jsonl");
}

interface LoadedJournal {
  pending: Map<string, PendingInbound>;
  settled: Map<string, InboundSettlement>;
  torn: number;
  bytes: number;
}

function parseRecord(line: string): InboundJournalRecord | undefined {
  try {
    const record = JSON.parse(line) as InboundJournalRecord;
    if (typeof record?.key !== "string") return undefined;
    if (record.type === "accepted" && typeof record.inbound === "object") return record;
    if (record.type === "settled") return record;
  } catch {
    // A line cut by a crash mid-write: the caller counts it and the next compaction drops it.
  }
  return undefined;
}

function loadJournal(path: string): LoadedJournal {
  const loaded: LoadedJournal = { pending: new Map(), settled: new Map(), torn: 0, bytes: 0 };
  if (!existsSync(path)) return loaded;
  const text = readFileSync(path, "utf8");
  loaded.bytes = Buffer.byteLength(text);
  // A last line without its newline is torn even when it parses: the next append would join it.
  if (text.length > 0 && !text.endsWith("\n")) loaded.torn += 1;
  const lines = text.split("\n");
  if (!text.endsWith("\n")) lines.pop();
  for (const line of lines) {
    if (!line.trim()) continue;
    const record = parseRecord(line);
    if (!record) {
      loaded.torn += 1;
      continue;
    }
    if (record.type === "accepted") {
      if (!loaded.settled.has(record.key))
        loaded.pending.set(record.key, { key: record.key, inbound: record.inbound });
    } else {
      loaded.pending.delete(record.key);
      loaded.settled.delete(record.key);
      loaded.settled.set(record.key, record.outcome);
    }
  }
  return loaded;
}

/** Opens (and if needed repairs or compacts) the journal of `stateDir`. */
export function openInboundJournal(options: InboundJournalOptions): InboundJournal {
  const path = inboundJournalPath(options.stateDir);
  const now = options.now ?? Date.now;
  const maxBytes = options.maxBytes ?? JOURNAL_MAX_BYTES;
  const keepSettled = Math.max(DEDUPE_MAX, options.keepSettled ?? DEDUPE_MAX);
  const loaded = loadJournal(path);
  const { pending, settled } = loaded;
  let bytes = loaded.bytes;
  let threshold = maxBytes;
  let fd: number | undefined;
  let syncTimer: ReturnType<typeof setTimeout> | undefined;
  const syncDelayMs = options.syncDelayMs ?? 1_000;

  const trimSettled = () => {
    for (const key of settled.keys()) {
      if (settled.size <= keepSettled) break;
      settled.delete(key);
    }
  };
  const openFd = () => {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    fd = openSync(path, "a", 0o600);
  };
  const compact = () => {
    trimSettled();
    const at = now();
    const lines = [
      ...[...settled].map(([key, outcome]) => ({ type: "settled", key, ts: at, outcome })),
      ...[...pending.values()].map((entry) => ({ type: "accepted", ts: at, ...entry })),
    ].map((record) => `${JSON.stringify(record)}\n`);
    const text = lines.join("");
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    writeFileAtomic(path, text);
    bytes = Buffer.byteLength(text);
    // Large pending messages (inline images) must not make every append compact again.
    threshold = Math.max(maxBytes, bytes * 2);
    openFd();
  };
  const append = (record: InboundJournalRecord) => {
    if (fd === undefined) throw new Error(`inbound journal ${path} is closed`);
    bytes += writeWholeSync(fd, `${JSON.stringify(record)}\n`);
    if (bytes > threshold) compact();
  };

  const sync = () => {
    if (syncTimer) clearTimeout(syncTimer);
    syncTimer = undefined;
    if (fd === undefined) return;
    fsyncSync(fd);
  };
  const syncSoon = () => {
    if (syncTimer || fd === undefined) return;
    syncTimer = setTimeout(() => {
      syncTimer = undefined;
      try {
        sync();
      } catch (err) {
        options.log.error({ path, error: String(err) }, "inbound journal: fsync failed");
      }
    }, syncDelayMs);
    syncTimer.unref?.();
  };

  if (loaded.torn > 0) {
    options.log.warn({ path, torn: loaded.torn }, "inbound journal: torn lines skipped");
    compact();
  } else if (bytes > maxBytes) compact();
  else openFd();

  return {
    path,
    keys: () => [...settled.keys(), ...pending.keys()],
    pending: () => [...pending.values()],
    accept(key, inbound) {
      const { raw: _raw, ...kept } = inbound;
      append({ type: "accepted", key, ts: now(), inbound: kept });
      pending.set(key, { key, inbound: kept });
    },
    settle(key, outcome) {
      if (fd === undefined || !pending.has(key)) return;
      pending.delete(key);
      settled.set(key, outcome);
      trimSettled();
      try {
        append({ type: "settled", key, ts: now(), outcome });
        syncSoon();
      } catch (err) {
        // Not fatal now; after a restart the message would be answered again, so say so loudly.
        options.log.error({ path, key, error: String(err) }, "inbound journal: settle not written");
      }
    },
    sync,
    close() {
      if (syncTimer) clearTimeout(syncTimer);
      syncTimer = undefined;
      if (fd === undefined) return;
      fsyncSync(fd);
      closeSync(fd);
      fd = undefined;
    },
  };
}
