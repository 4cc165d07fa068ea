// A session that starts as a copy of another (a thread's session from its channel's, OpenClaw's
// `thread.inheritParent`): the child's transcript is written whole, once, before its first turn: a
// header naming the parent's file (`parentSession`, as OpenClaw writes it) and the parent's current
// branch (root to leaf) copied line for line. The parent is only read. Crash-safe in the store's
// order: the child's index entry is durable before its file exists (never an orphan), the copy is
// written to a temp file in the sessions dir and fsynced, then linked into place (never over a file
// already there: a transcript created meanwhile wins and the fork is skipped) and the dir fsynced.
// A crash leaves either no child file (the session starts empty) or the whole copy.
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, fsyncSync, linkSync, openSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fsyncDirSync, writeWholeSync } from "../lib/durable-io.js";
import type { SessionStoreApi } from "./store-api.js";
import { currentBranch, TRANSCRIPT_VERSION, type TranscriptHeader } from "./transcript-format.js";

/** What {@link forkSessionTranscript} did. */
export type ForkOutcome =
  | { status: "forked"; file: string; entries: number }
  | {
      status: "skipped";
      reason: "no-child" | "no-parent" | "empty-parent" | "child-has-transcript";
    };

/** Inputs of {@link forkSessionTranscript}. */
export interface ForkSessionParams {
  store: SessionStoreApi;
  /** The session copied (read only). */
  parentKey: string;
  /** The session that starts as the copy: its entry exists, its transcript does not yet. */
  childKey: string;
}

/**
 * Writes the child's transcript as a copy of the parent's current branch. Resolves once the copy is
 * on disk; a child that already has a transcript, or a parent without messages, is left alone.
 */
export async function forkSessionTranscript(params: ForkSessionParams): Promise<ForkOutcome> {
  const { store, parentKey, childKey } = params;
  const child = store.get(childKey);
  if (!child) return { status: "skipped", reason: "no-child" };
  if (store.transcriptPath(childKey) === undefined && store.transcriptPath(parentKey) === undefined)
    return forkWithoutFiles(params);
  const parentFile = store.transcriptPath(parentKey);
  const parent = store.readTranscript(parentKey);
  if (!parentFile || !parent?.exists) return { status: "skipped", reason: "no-parent" };
  const branch = currentBranch(parent.entries);
  if (branch.length === 0) return { status: "skipped", reason: "empty-parent" };
  const target = store.transcriptPath(childKey);
  if (!target || existsSync(target)) return { status: "skipped", reason: "child-has-transcript" };
  // The entry that points at the file is durable before the file exists.
  await store.flush();
  const header: TranscriptHeader = {
    type: "session",
    version: parent.header?.version ?? TRANSCRIPT_VERSION,
    id: child.sessionId,
    timestamp: new Date(store.now()).toISOString(),
    cwd: parent.header?.cwd ?? "",
    parentSession: parentFile,
  };
  const text = [header, ...branch].map((line) => `${JSON.stringify(line)}\n`).join("");
  const dir = dirname(target);
  const temp = join(dir, `.${basename(target)}.fork-${randomBytes(6).toString("hex")}.tmp`);
  try {
    const fd = openSync(temp, "wx", 0o600);
    try {
      writeWholeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temp, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST")
        return { status: "skipped", reason: "child-has-transcript" };
      throw err;
    }
  } finally {
    rmSync(temp, { force: true });
  }
  fsyncDirSync(dir);
  return { status: "forked", file: target, entries: branch.length };
}

/**
 * The fork in a store without transcript files (PostgreSQL): the branch is appended to the child's new
 * transcript with the parent's ids, so the copy is idempotent (a retried fork writes nothing new).
 */
async function forkWithoutFiles(params: ForkSessionParams): Promise<ForkOutcome> {
  const { store, parentKey, childKey } = params;
  const parent = await store.readTranscriptAsync(parentKey);
  if (!parent?.exists) return { status: "skipped", reason: "no-parent" };
  const branch = currentBranch(parent.entries);
  if (branch.length === 0) return { status: "skipped", reason: "empty-parent" };
  const existing = await store.readTranscriptAsync(childKey);
  if (existing?.exists && existing.entries.length > 0)
    return { status: "skipped", reason: "child-has-transcript" };
  const transcript = await store.openTranscriptAsync(childKey, { cwd: parent.header?.cwd ?? "" });
  if (transcript.entries.length > 0) return { status: "skipped", reason: "child-has-transcript" };
  for (const entry of branch) transcript.append({ ...entry });
  await store.flush();
  return { status: "forked", file: transcript.file, entries: branch.length };
}
