import { Duplex } from "node:stream";
import { describe, expect, it } from "vitest";
import { SLOW_CLIENT_BYTES } from "../events/event-fanout.js";
import { BATCH_FLUSH_BYTES, TickWriteBatch } from "./write-batch.js";

/** A real Duplex whose sink records each write it is handed (one entry per underlying write). */
class RecordingSocket extends Duplex {
  readonly writes: string[][] = [];

  override _read(): void {}

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (error?: Error | null) => void): void {
    this.writes.push([chunk.toString()]);
    done();
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, done: (error?: Error | null) => void): void {
    this.writes.push(chunks.map(({ chunk }) => chunk.toString()));
    done();
  }
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("TickWriteBatch", () => {
  it("writes the frames of one loop turn in one socket write, in order", async () => {
    const socket = new RecordingSocket();
    const batch = new TickWriteBatch(socket);
    for (const frame of ["a", "b", "c", "d"]) {
      batch.hold();
      socket.write(frame);
    }
    expect(socket.writes).toEqual([]);
    await nextTurn();
    expect(socket.writes).toEqual([["a", "b", "c", "d"]]);
  });

  it("starts a new batch on the next loop turn", async () => {
    const socket = new RecordingSocket();
    const batch = new TickWriteBatch(socket);
    batch.hold();
    socket.write("a");
    await nextTurn();
    batch.hold();
    socket.write("b");
    batch.hold();
    socket.write("c");
    await nextTurn();
    expect(socket.writes).toEqual([["a"], ["b", "c"]]);
  });

  it("nests inside a writer's own cork/uncork per frame (as ws does)", async () => {
    const socket = new RecordingSocket();
    const batch = new TickWriteBatch(socket);
    for (const frame of ["h1", "h2"]) {
      batch.hold();
      socket.cork();
      socket.write(`${frame}-header`);
      socket.write(`${frame}-body`);
      socket.uncork();
    }
    expect(socket.writes).toEqual([]);
    await nextTurn();
    expect(socket.writes).toEqual([["h1-header", "h1-body", "h2-header", "h2-body"]]);
  });

  it("flush writes at once (before a close) and is idempotent", async () => {
    const socket = new RecordingSocket();
    const batch = new TickWriteBatch(socket);
    batch.hold();
    socket.write("last");
    batch.flush();
    batch.flush();
    expect(socket.writes.flat()).toEqual(["last"]);
    await nextTurn();
    expect(socket.writes.flat()).toEqual(["last"]);
  });
});

describe("BATCH_FLUSH_BYTES", () => {
  it("is far below the slow-client bound, so a batch never counts as a slow client", () => {
    expect(BATCH_FLUSH_BYTES * 8).toBeLessThanOrEqual(SLOW_CLIENT_BYTES);
  });
});
