// A new transcript file created off the main thread, for the store's asynchronous open: under load
// a blocking create waits behind the fsyncs the thread pool runs for other sessions (the journal
// commits they force), which stalls every turn on the event loop. The header is written to a temp
// file beside the target, which is then hard-linked into place: a link never replaces an existing
// file, so a file that appeared meanwhile wins, and no reader ever sees the file without its header
// (the blocking create has that window, which the reader repairs as "cut while created"). The temp
// name is removed right after; a crash in between leaves one hidden header-only file beside it.
import { close, constants, fstat, link, mkdir, open, type Stats, unlink, write } from "node:fs";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import { fsyncFd } from "./fsync.js";
import { type OpenTranscriptParams, Transcript } from "./transcript.js";
import { createTranscriptHeader } from "./transcript-format.js";

const openAsync = promisify(open);
const writeAsync = promisify(write);
const closeAsync = promisify(close);
const fstatAsync = promisify(fstat) as (fd: number) => Promise<Stats>;
const linkAsync = promisify(link);
const unlinkAsync = promisify(unlink);
const mkdirAsync = promisify(mkdir);

function tempPathFor(file: string): string {
  const suffix = `${process.pid}.${Math.random().toString(36).slice(2, 12)}`;
  return join(dirname(file), `.${basename(file)}.${suffix}.creating`);
}

/** Writes all of `text` at the fd's end (a short write is finished). */
async function writeAll(fd: number, text: string): Promise<void> {
  const bytes = Buffer.from(text, "utf8");
  let written = 0;
  while (written < bytes.length) {
    written += (await writeAsync(fd, bytes, written, bytes.length - written)).bytesWritten;
  }
}

/**
 * Creates `params.file` holding only its header, off the main thread, and returns it opened (as
 * {@link openTranscript} returns a new one); undefined when the file exists already, created by
 * something else meanwhile (the caller opens what is there).
 */
export async function createTranscriptAsync(
  params: OpenTranscriptParams,
): Promise<Transcript | undefined> {
  const header = createTranscriptHeader({
    sessionId: params.sessionId,
    cwd: params.cwd,
    now: params.clock.now(),
    ...(params.parentSession ? { parentSession: params.parentSession } : {}),
  });
  await mkdirAsync(dirname(params.file), { recursive: true, mode: 0o700 });
  const temp = tempPathFor(params.file);
  const flags = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_APPEND;
  const fd = await openAsync(temp, flags, 0o600);
  let keep = false;
  try {
    await writeAll(fd, `${JSON.stringify(header)}\n`);
    if (params.fsync === "always") await fsyncFd(fd);
    const linked = await linkAsync(temp, params.file).then(
      () => true,
      (err: NodeJS.ErrnoException) => {
        if (err.code === "EEXIST") return false;
        throw err;
      },
    );
    if (!linked) return undefined;
    const stat = params.keepOpen ? await fstatAsync(fd) : undefined;
    const created = new Transcript(params, {
      header,
      entries: [],
      needsNewline: false,
      ...(params.keepOpen ? { fd } : {}),
    });
    keep = params.keepOpen === true;
    if (stat) created.noteDiskState(stat);
    params.onWrite?.(params.file, true, created);
    return created;
  } finally {
    await unlinkAsync(temp).catch((err: unknown) =>
      params.logger?.warn(`could not remove ${temp} (a header-only leftover): ${String(err)}`),
    );
    if (!keep) await closeAsync(fd);
  }
}
