import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FrameHeaderReader } from "./frame-meter.js";

/** A client frame (masked unless told otherwise) with `length` payload bytes. */
function frame(options: {
  length: number;
  opcode?: number;
  fin?: boolean;
  masked?: boolean;
  rsv?: number;
}): Buffer {
  const { length, opcode = 1, fin = true, masked = true, rsv = 0 } = options;
  const parts: Buffer[] = [];
  const first = (fin ? 0x80 : 0) | rsv | opcode;
  const mask = masked ? 0x80 : 0;
  if (length < 126) parts.push(Buffer.from([first, mask | length]));
  else if (length < 65_536) {
    const head = Buffer.from([first, mask | 126, 0, 0]);
    head.writeUInt16BE(length, 2);
    parts.push(head);
  } else {
    const head = Buffer.alloc(10);
    head[0] = first;
    head[1] = mask | 127;
    head.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    head.writeUInt32BE(length % 2 ** 32, 6);
    parts.push(head);
  }
  if (masked) parts.push(Buffer.from([1, 2, 3, 4]));
  parts.push(Buffer.alloc(length, 0x61));
  return Buffer.concat(parts);
}

/** Feeds `bytes` in pieces of `size` bytes; the first refusal, if any. */
function feedInPieces(reader: FrameHeaderReader, bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) {
    const refusal = reader.feed(bytes.subarray(at, at + size));
    if (refusal) return refusal;
  }
  return undefined;
}

describe("FrameHeaderReader", () => {
  it("passes frames of every length encoding, however the bytes are split", () => {
    const stream = Buffer.concat(
      [0, 5, 125, 126, 300, 65_535, 65_536, 70_000].map((length) => frame({ length })),
    );
    for (const size of [1, 7, 1024, stream.length]) {
      expect(feedInPieces(new FrameHeaderReader(() => 100_000), stream, size)).toBeUndefined();
    }
  });

  it("refuses a message over the current limit at its header, naming the limit", () => {
    const reader = new FrameHeaderReader(() => 65_536);
    const big = frame({ length: 70_000 });
    expect(reader.feed(big.subarray(0, 14))).toEqual({
      code: 1009,
      reason: "frame too large: limit 65536 bytes",
    });
    expect(feedInPieces(new FrameHeaderReader(() => 65_536), frame({ length: 65_536 }), 3)).toBe(
      undefined,
    );
  });

  it("counts every fragment of a message, not only the frame, and control frames not at all", () => {
    const stream = Buffer.concat([
      frame({ length: 40_000, fin: false }),
      frame({ length: 4, opcode: 0x9 }),
      frame({ length: 40_000, opcode: 0 }),
    ]);
    expect(feedInPieces(new FrameHeaderReader(() => 65_536), stream, 999)).toMatchObject({
      code: 1009,
    });
    expect(feedInPieces(new FrameHeaderReader(() => 80_000), stream, 999)).toBeUndefined();
  });

  it("applies the limit in force when each header arrives (raised after connect)", () => {
    let limit = 65_536;
    const reader = new FrameHeaderReader(() => limit);
    expect(reader.feed(frame({ length: 1000 }))).toBeUndefined();
    limit = 26_214_400;
    expect(reader.feed(frame({ length: 70_000 }))).toBeUndefined();
  });

  it("refuses broken headers with ws's own words", () => {
    const cases: Array<[Buffer, string]> = [
      [frame({ length: 2, masked: false }), "MASK must be set"],
      [frame({ length: 2, rsv: 0x40 }), "RSV1 must be clear"],
      [frame({ length: 2, rsv: 0x20 }), "RSV2 and RSV3 must be clear"],
      [frame({ length: 2, opcode: 3 }), "invalid opcode 3"],
      [frame({ length: 2, opcode: 0 }), "invalid opcode 0"],
      [frame({ length: 126, opcode: 0x9 }), "invalid payload length 126"],
      [frame({ length: 2, opcode: 0x9, fin: false }), "FIN must be set"],
    ];
    for (const [bytes, words] of cases) {
      expect(new FrameHeaderReader(() => 65_536).feed(bytes)).toEqual({
        code: 1002,
        reason: `protocol error: Invalid WebSocket frame: ${words}`,
      });
    }
  });
});

describe("ws's private fields", () => {
  it("are never touched in src (its public options and the socket's stream API only)", () => {
    const root = new URL("../", import.meta.url).pathname;
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
      (file) => file.endsWith(".ts") && !file.endsWith(".test.ts"),
    );
    const offenders = files.filter((file) =>
      /\b_(receiver|socket|maxPayload|sender)\b/.test(readFileSync(join(root, file), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
