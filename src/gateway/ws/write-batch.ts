// Coalesces a connection's outgoing frames into one socket write per event-loop turn: the first
// frame of a turn corks the upgraded socket, and the flush (scheduled once, after the I/O of the
// turn) uncorks it, so the frames queued meanwhile leave in one writev instead of one write
// syscall each. Order and content are unchanged (ws's own cork/uncork per frame nests inside);
// only the moment the bytes reach the kernel moves to the end of the current loop turn. A batch past
// BATCH_FLUSH_BYTES is written at once, so the outgoing-buffer bounds still see what the kernel
// did not take, not what this turn queued.
import type { Duplex } from "node:stream";

/** Queued bytes past which a batch is written at once, so a burst never looks like a slow client. */
export const BATCH_FLUSH_BYTES = 64 * 1024;

/** Schedules `flush` after the current loop turn's I/O (setImmediate unless given). */
export type FlushScheduler = (flush: () => void) => void;

/** One socket's frames of the current loop turn, written together. */
export class TickWriteBatch {
  private corked = false;
  private readonly flushNow = () => this.flush();

  constructor(
    private readonly socket: Duplex,
    private readonly schedule: FlushScheduler = (flush) => void setImmediate(flush),
  ) {}

  /** Call before writing a frame: corks the socket for the rest of this loop turn. */
  hold(): void {
    if (this.corked || this.socket.destroyed) return;
    this.corked = true;
    this.socket.cork();
    this.schedule(this.flushNow);
  }

  /** Writes out what this turn queued (idempotent); before a close, so nothing waits behind it. */
  flush(): void {
    if (!this.corked) return;
    this.corked = false;
    this.socket.uncork();
  }
}
