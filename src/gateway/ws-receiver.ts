// The two places the gateway reaches into ws@8's per-socket receiver: its frame-size limit (lowered
// before `connect`, raised after) and its protocol errors, which ws answers with a bare close code;
// the hook closes first with a reason ("frame too large: limit 65536 bytes"), so the client knows why.
import type { WebSocket } from "ws";

type Receiver = {
  _maxPayload?: number;
  prependListener?: (event: "error", listener: (err: Error) => void) => unknown;
};
type WithReceiver = { _receiver?: Receiver };

function receiverOf(ws: WebSocket): Receiver | undefined {
  return (ws as unknown as WithReceiver)._receiver ?? undefined;
}

/** Sets ws's per-socket frame limit (the connection checks sizes again on each message). */
export function setFrameLimit(ws: WebSocket, bytes: number): void {
  const receiver = receiverOf(ws);
  if (receiver && typeof receiver._maxPayload === "number") receiver._maxPayload = bytes;
}

/** The current per-socket frame limit, if ws exposes it. */
export function frameLimit(ws: WebSocket): number | undefined {
  const limit = receiverOf(ws)?._maxPayload;
  return typeof limit === "number" ? limit : undefined;
}

/** A close code and reason for a frame ws refused while reading it. */
export interface ProtocolClose {
  code: number;
  reason: string;
}

function statusOf(err: Error): number | undefined {
  const key = Object.getOwnPropertySymbols(err).find((s) => s.description === "status-code");
  const value = key === undefined ? undefined : (err as unknown as Record<symbol, unknown>)[key];
  return typeof value === "number" ? value : undefined;
}

/** The close a receiver error deserves: too large (1009), bad UTF-8 (1007), else its own code. */
export function describeReceiverError(err: Error, limit: number | undefined): ProtocolClose {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") {
    return {
      code: 1009,
      reason: limit ? `frame too large: limit ${limit} bytes` : "frame too large",
    };
  }
  if (code === "WS_ERR_INVALID_UTF8")
    return { code: 1007, reason: "invalid UTF-8 in a text frame" };
  return { code: statusOf(err) ?? 1002, reason: `protocol error: ${err.message}` };
}

/**
 * Calls `onError` before ws's own handler when the receiver rejects a frame, so the connection can
 * close with a reason. Without the private receiver (another ws version) ws's bare close stays.
 */
export function onReceiverError(ws: WebSocket, onError: (close: ProtocolClose) => void): void {
  const receiver = receiverOf(ws);
  if (!receiver || typeof receiver.prependListener !== "function") return;
  receiver.prependListener("error", (err) => onError(describeReceiverError(err, frameLimit(ws))));
}
