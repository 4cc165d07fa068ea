// The delivery queue on disk: `<stateDir>/channels/delivery-queue.jsonl`, one JSON record per line,
// one `write` per line on a kept fd (a kill -9 loses at most the line being written, which is
// skipped and repaired on open). Records that must survive a power loss (the plan, each intent,
// each retry schedule, each dead letter) are fsynced before the call returns. Compacted atomically
// (live deliveries + the newest finished summaries) once the file passes 4 MiB.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../../lib/atomic-write.js";
import { writeWholeSync } from "../../lib/durable-io.js";
import { DEDUPE_MAX } from "../inbound/redelivery-filter.js";
import {
  applyRecord,
  type DeliveryRecord,
  type DeliveryState,
  emptyDeliveryState,
  parseDeliveryRecord,
  stateRecords,
} from "./delivery-records.js";

/** Path of the queue file. */
export function deliveryQueuePath(stateDir: string): string {
  return join(stateDir, "channels", "delivery-queue.jsonl");
}

/** Default size that triggers a compaction. */
export const DELIVERY_QUEUE_MAX_BYTES = 4 * 1024 * 1024;

/** The open queue file and the state its records fold into. */
export interface DeliveryStore {
  readonly path: string;
  readonly state: DeliveryState;
  /** Lines skipped on open because a crash cut them. */
  readonly torn: number;
  /** Applies and appends a record; `durable` fsyncs before returning. Throws if it cannot write. */
  append(record: DeliveryRecord, options?: { durable?: boolean }): void;
  /** Flushes and closes; later appends throw. */
  close(): void;
}

/** Options of {@link openDeliveryStore}. */
export interface DeliveryStoreOptions {
  stateDir: string;
  now: () => number;
  maxBytes?: number;
  /** Finished summaries a compaction keeps (default: the dedupe window). */
  keepSummaries?: number;
  /** Called after each compaction (the state lost its oldest summaries). */
  onCompact?: (state: DeliveryState) => void;
}

/** Reads the records of `stateDir` into a state, without opening the file for writing. */
export function readDeliveryState(stateDir: string): {
  state: DeliveryState;
  torn: number;
  bytes: number;
} {
  const path = deliveryQueuePath(stateDir);
  const state = emptyDeliveryState();
  if (!existsSync(path)) return { state, torn: 0, bytes: 0 };
  const text = readFileSync(path, "utf8");
  let torn = text.length > 0 && !text.endsWith("\n") ? 1 : 0;
  const lines = text.split("\n");
  if (!text.endsWith("\n")) lines.pop();
  for (const line of lines) {
    if (!line.trim()) continue;
    const record = parseDeliveryRecord(line);
    if (record) applyRecord(state, record);
    else torn += 1;
  }
  return { state, torn, bytes: Buffer.byteLength(text) };
}

/** Opens (repairing or compacting as needed) the queue file of `stateDir`. */
export function openDeliveryStore(options: DeliveryStoreOptions): DeliveryStore {
  const path = deliveryQueuePath(options.stateDir);
  const maxBytes = options.maxBytes ?? DELIVERY_QUEUE_MAX_BYTES;
  const keepSummaries = options.keepSummaries ?? DEDUPE_MAX;
  const loaded = readDeliveryState(options.stateDir);
  const { state } = loaded;
  let bytes = loaded.bytes;
  let threshold = maxBytes;
  let fd: number | undefined;

  const openFd = () => {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    fd = openSync(path, "a", 0o600);
  };
  const compact = () => {
    const records = stateRecords(state, { ts: options.now(), keepSummaries });
    // Summaries beyond the kept ones are forgotten in memory too.
    const kept = new Set(records.flatMap((r) => (r.type === "done" ? [r.id] : [])));
    for (const id of state.summaries.keys()) if (!kept.has(id)) state.summaries.delete(id);
    const text = records.map((record) => `${JSON.stringify(record)}\n`).join("");
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    writeFileAtomic(path, text);
    bytes = Buffer.byteLength(text);
    threshold = Math.max(maxBytes, bytes * 2);
    openFd();
    options.onCompact?.(state);
  };

  if (loaded.torn > 0 || bytes > maxBytes) compact();
  else openFd();

  return {
    path,
    state,
    torn: loaded.torn,
    append(record, { durable = false } = {}) {
      if (fd === undefined) throw new Error(`delivery queue ${path} is closed`);
      bytes += writeWholeSync(fd, `${JSON.stringify(record)}\n`);
      if (durable) fsyncSync(fd);
      applyRecord(state, record);
      if (bytes > threshold) compact();
    },
    close() {
      if (fd === undefined) return;
      fsyncSync(fd);
      closeSync(fd);
      fd = undefined;
    },
  };
}
