// What the gateway answers to each incoming WebSocket frame before it reaches the handshake or a
// method: a valid request frame, or a refusal saying what is wrong, with the request id when one
// can be recovered and the close code to use when the refusal closes the connection.
import type { RawData } from "ws";
import { GATEWAY_SCHEMAS } from "../../protocol/gateway/index.js";
import { formatIssues, validateSchema } from "./schema-issues.js";

/** A request frame that passed the frame schema. */
export interface RequestFrameIn {
  id: string;
  method: string;
  params?: unknown;
}

/**
 * A frame that is not a valid request: `message` names the problem; `id` is set when the frame
 * carried a usable request id; `closeCode` is the close to use when the connection is closed for
 * it (before `connect`): 1003 binary, 1007 not JSON, 1008 anything else.
 */
export interface FrameRefusal {
  id?: string;
  message: string;
  closeCode: 1003 | 1007 | 1008;
}

/** The verdict on one incoming frame. */
export type FrameVerdict = { ok: true; request: RequestFrameIn } | ({ ok: false } & FrameRefusal);

/** The response id for a frame whose own id cannot be recovered (OpenClaw's fallback). */
export const UNKNOWN_REQUEST_ID = "invalid";

/** Close code for binary frames (RFC 6455 "unsupported data"). */
export const CLOSE_UNSUPPORTED_DATA = 1003;
/** Close code for text that is not JSON (RFC 6455 "invalid frame payload data"). */
export const CLOSE_INVALID_PAYLOAD = 1007;
/** Close code for protocol violations (RFC 6455 "policy violation"). */
export const CLOSE_POLICY_VIOLATION = 1008;

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString("utf8");
}

function recoverId(frame: Record<string, unknown>): string | undefined {
  return typeof frame.id === "string" && frame.id.length > 0 ? frame.id : undefined;
}

/** Checks one frame: text, JSON, an object, and the closed `req` frame schema. */
export function checkRequestFrame(data: RawData, isBinary: boolean): FrameVerdict {
  if (isBinary) {
    return {
      ok: false,
      message: "binary frames are not supported: send JSON text frames",
      closeCode: CLOSE_UNSUPPORTED_DATA,
    };
  }
  let frame: unknown;
  try {
    frame = JSON.parse(rawText(data));
  } catch {
    // Not JSON: no id can be recovered; the refusal says so.
    return {
      ok: false,
      message: "invalid request frame: not valid JSON",
      closeCode: CLOSE_INVALID_PAYLOAD,
    };
  }
  if (typeof frame !== "object" || frame === null || Array.isArray(frame)) {
    const kind = frame === null ? "null" : Array.isArray(frame) ? "an array" : typeof frame;
    return {
      ok: false,
      message: `invalid request frame: must be a JSON object, got ${kind}`,
      closeCode: CLOSE_POLICY_VIOLATION,
    };
  }
  const issues = validateSchema(GATEWAY_SCHEMAS["frame.req"], frame);
  if (issues.length > 0) {
    const id = recoverId(frame as Record<string, unknown>);
    return {
      ok: false,
      ...(id ? { id } : {}),
      message: `invalid request frame: ${formatIssues(issues)}`,
      closeCode: CLOSE_POLICY_VIOLATION,
    };
  }
  return { ok: true, request: frame as RequestFrameIn };
}

/** The largest close reason RFC 6455 allows (bytes of UTF-8). */
export const MAX_CLOSE_REASON_BYTES = 123;

/** Shortens a close reason to 123 UTF-8 bytes without splitting a character ("…" marks a cut). */
export function truncateCloseReason(reason: string): string {
  if (Buffer.byteLength(reason) <= MAX_CLOSE_REASON_BYTES) return reason;
  let out = "";
  let bytes = 0;
  const budget = MAX_CLOSE_REASON_BYTES - Buffer.byteLength("…");
  for (const char of reason) {
    const size = Buffer.byteLength(char);
    if (bytes + size > budget) break;
    out += char;
    bytes += size;
  }
  return `${out}…`;
}
