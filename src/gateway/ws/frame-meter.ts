// The size and shape of each WebSocket frame a client sends, read from the frame headers (RFC 6455,
// section 5.2) on the upgraded socket itself, ahead of ws (its listener runs first). It lets the gateway
// refuse with a reason — "frame too large: limit 65536 bytes" (1009), "protocol error: …" (1002) —
// where ws would close with a bare code, and apply a limit that changes after `connect`
// (ws's own `maxPayload` is fixed per server). Uses only the socket's public stream API.
import { isUtf8 } from "node:buffer";
import type { Duplex } from "node:stream";
import type { RawData } from "ws";

/** A close code and reason for a frame the meter refused. */
export interface FrameRefusal {
  code: number;
  reason: string;
}

/** Inputs of {@link meterFrames}. */
export interface FrameMeterParams {
  /** The socket ws took over in `handleUpgrade`. */
  socket: Duplex;
  /** The largest message (all fragments) allowed now, in bytes. */
  limit: () => number;
  /** ws's own `maxPayload`: a refused message above it is discarded by ws itself. */
  wsMaxPayload: number;
  /** Called once, for the first frame that breaks a rule; metering stops there. */
  onRefuse: (refusal: FrameRefusal) => void;
}

/** Bytes past the limit a refused client may still send (ws buffers them) before it is cut off. */
export const REFUSED_SLACK_BYTES = 65_536;

const EMPTY = Buffer.alloc(0);

function protocolError(message: string): FrameRefusal {
  return { code: 1002, reason: `protocol error: Invalid WebSocket frame: ${message}` };
}

function headerSize(start: Buffer): number {
  const length = start[1] & 0x7f;
  const extended = length === 126 ? 2 : length === 127 ? 8 : 0;
  return 2 + extended + ((start[1] & 0x80) !== 0 ? 4 : 0);
}

/** Reads frame headers out of the client's byte stream and checks each one. */
export class FrameHeaderReader {
  private pending = EMPTY;
  private remaining = 0;
  private fragmented = false;
  /** Declared length of the message being read (all its fragments so far). */
  messageBytes = 0;

  constructor(private readonly limit: () => number) {}

  /** Feeds the next bytes; returns a refusal for the first frame that breaks a rule. */
  feed(chunk: Buffer): FrameRefusal | undefined {
    let offset = 0;
    for (;;) {
      if (this.remaining > 0) {
        if (offset >= chunk.length) return undefined;
        const skip = Math.min(this.remaining, chunk.length - offset);
        this.remaining -= skip;
        offset += skip;
        continue;
      }
      const want = this.pending.length < 2 ? 2 : headerSize(this.pending);
      if (this.pending.length < want) {
        if (offset >= chunk.length) return undefined;
        const take = Math.min(want - this.pending.length, chunk.length - offset);
        this.pending = Buffer.concat([this.pending, chunk.subarray(offset, offset + take)]);
        offset += take;
        continue;
      }
      const refusal = this.readHeader(this.pending);
      this.pending = EMPTY;
      if (refusal) return refusal;
    }
  }

  /** Checks one complete header in ws's order (so the reason is the one ws would have had). */
  private readHeader(header: Buffer): FrameRefusal | undefined {
    const fin = (header[0] & 0x80) !== 0;
    const opcode = header[0] & 0x0f;
    const short = header[1] & 0x7f;
    if ((header[0] & 0x30) !== 0) return protocolError("RSV2 and RSV3 must be clear");
    if ((header[0] & 0x40) !== 0) return protocolError("RSV1 must be clear");
    const data = opcode <= 0x02;
    if (opcode === 0x00 && !this.fragmented) return protocolError("invalid opcode 0");
    if ((opcode === 0x01 || opcode === 0x02) && this.fragmented)
      return protocolError(`invalid opcode ${opcode}`);
    if (opcode >= 0x08 && opcode <= 0x0a) {
      if (!fin) return protocolError("FIN must be set");
      if (short > 0x7d || (opcode === 0x08 && short === 1))
        return protocolError(`invalid payload length ${short}`);
    } else if (!data) {
      return protocolError(`invalid opcode ${opcode}`);
    }
    if ((header[1] & 0x80) === 0) return protocolError("MASK must be set");
    let length = short;
    if (short === 126) length = header.readUInt16BE(2);
    else if (short === 127) {
      const high = header.readUInt32BE(2);
      length = high > 0x1fffff ? Number.POSITIVE_INFINITY : high * 2 ** 32 + header.readUInt32BE(6);
    }
    this.remaining = Number.isFinite(length) ? length : 0;
    if (!data) return undefined;
    this.messageBytes += length;
    const limit = this.limit();
    if (this.messageBytes > limit) {
      return { code: 1009, reason: `frame too large: limit ${limit} bytes` };
    }
    this.fragmented = !fin;
    if (fin) this.messageBytes = 0;
    return undefined;
  }
}

/**
 * Meters the frames arriving on `socket` until one breaks a rule, then calls `onRefuse` (the
 * caller closes with that code and reason). When ws would go on buffering a message refused as too
 * large (it fits ws's own, higher limit), a client that goes on sending more than the limit it broke
 * plus {@link REFUSED_SLACK_BYTES} is cut off: a refused message costs about the limit, not ws's.
 */
export function meterFrames(params: FrameMeterParams): void {
  const { socket } = params;
  const reader = new FrameHeaderReader(params.limit);
  let budget = -1;
  const onData = (chunk: Buffer) => {
    if (budget >= 0) {
      budget -= chunk.length;
      if (budget < 0) {
        socket.removeListener("data", onData);
        socket.destroy();
      }
      return;
    }
    const refusal = reader.feed(chunk);
    if (!refusal) return;
    const refusedLimit = params.limit();
    params.onRefuse(refusal);
    if (refusal.code === 1009 && reader.messageBytes <= params.wsMaxPayload) {
      budget = refusedLimit + REFUSED_SLACK_BYTES;
    } else {
      socket.removeListener("data", onData);
    }
  };
  socket.prependListener("data", onData);
}

/** Whether a text message is valid UTF-8 (ws is told to skip this check, so the gateway can close
 * with a reason: 1007 "invalid UTF-8 in a text frame"). */
export function isUtf8Text(data: RawData): boolean {
  return Array.isArray(data) ? isUtf8(Buffer.concat(data)) : isUtf8(data);
}

/** Bytes of a message as ws hands it over (a Buffer, fragments, or an ArrayBuffer). */
export function rawDataLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((sum, part) => sum + part.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}
