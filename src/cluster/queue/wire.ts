// What crosses NATS, as JSON: a turn (gateway → worker, on the stream), a run's events and its result
// (worker → gateway, core NATS), a cancel and a steer (gateway → workers), a steer's answer and its
// applied ack (worker → gateway) and a worker's heartbeat. Parsing never throws: a malformed message
// is an error value the receiver logs (and a turn is terminated).
import type { ImageContent } from "@mariozechner/pi-ai";
import type { RunEvent } from "../../runtime/run/events.js";
import type { RunResult } from "../../runtime/run/run-agent.js";
import type { RunRecovery } from "../../runtime/run/turn-recovery.js";
import type { PresetTurnBudget } from "../../runtime/usage/budget-decision.js";
import type { UsageRecord } from "../../runtime/usage/usage-record.js";

/** One turn to run: what `runAgent` needs that can cross a process boundary (no signal, no steering
 *  inbox, no lane slot). `runId` is the turn's stable id (the gateway's run id). */
export interface TurnMessage {
  v: 1;
  runId: string;
  agentId: string;
  sessionKey: string;
  message: string;
  images?: ImageContent[];
  timeoutSeconds?: number;
  recovery?: RunRecovery;
  inboundKeys?: string[];
  /** The gateway's budget decision (warn notice, fallback model) and the agent's limits: the worker
   *  applies it and checks perTurnTokens before each model call. */
  budget?: PresetTurnBudget;
  /** Gateway clock when published (status shows the age of the oldest turn). */
  publishedAt: number;
}

/** One run event, numbered from 0 (the gateway drops repeats after a redelivery). */
export interface EventMessage {
  runId: string;
  seq: number;
  event: RunEvent;
}

/** A run's result and which worker produced it. */
export interface ResultMessage {
  runId: string;
  worker: string;
  result: RunResult;
  /** The turn's usage record, as the in-process run logs it; the gateway logs it once per runId. */
  usage?: UsageRecord;
  /** Steer ids the run took, as its transcript records them (earlier deliveries' included); a steer
   *  of the run not listed was not taken and goes to a follow-up turn. */
  steered?: string[];
}

/** A message steered into a running turn (gateway → `<prefix>.steer.<runId>`, a request). `id` is
 *  stable (`<runId>.s<n>`): the worker takes an id once. */
export interface SteerMessage {
  v: 1;
  runId: string;
  id: string;
  text: string;
  images?: ImageContent[];
  /** When the gateway received it (ms epoch): the user message's timestamp, as in-process. */
  receivedAt?: number;
}

/** A worker's answer to a steer: held for the run's next steering check, already known (in its
 *  inbox or its transcript), or refused (the run has ended there). */
export interface SteerReply {
  id: string;
  status: "accepted" | "duplicate" | "rejected";
  reason?: string;
}

/** The worker's ack that the run took a steer (`<prefix>.steered.<runId>`), sent as it is injected. */
export interface SteeredAck {
  runId: string;
  id: string;
}

/** A worker's heartbeat. */
export interface WorkerBeat {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  inFlight: number;
  startedAt: number;
  /** Set on the last beat of a worker that stops. */
  stopping?: boolean;
}

/** A parsed message, or why it could not be. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** JSON bytes of a message. */
export function encode(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/** A JSON object from NATS bytes, or why the bytes are not one. */
export function parseObject(data: Uint8Array): Parsed<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(decoder.decode(data));
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return { ok: true, value: value as Record<string, unknown> };
    return { ok: false, error: "not a JSON object" };
  } catch (err) {
    return { ok: false, error: `not JSON: ${(err as Error).message}` };
  }
}

function hasStrings(value: Record<string, unknown>, keys: readonly string[]): string | undefined {
  return keys.find((key) => typeof value[key] !== "string");
}

/** A turn from the stream. */
export function parseTurn(data: Uint8Array): Parsed<TurnMessage> {
  const parsed = parseObject(data);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (value.v !== 1) return { ok: false, error: `unknown turn version ${String(value.v)}` };
  const missing = hasStrings(value, ["runId", "agentId", "sessionKey", "message"]);
  if (missing) return { ok: false, error: `turn without ${missing}` };
  return { ok: true, value: value as unknown as TurnMessage };
}

/** A run event from `<prefix>.events.<runId>`. */
export function parseEvent(data: Uint8Array): Parsed<EventMessage> {
  const parsed = parseObject(data);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (typeof value.runId !== "string" || typeof value.seq !== "number")
    return { ok: false, error: "event without runId or seq" };
  if (typeof value.event !== "object" || value.event === null)
    return { ok: false, error: "event without event" };
  return { ok: true, value: value as unknown as EventMessage };
}

/** A result from `<prefix>.results`. */
export function parseResult(data: Uint8Array): Parsed<ResultMessage> {
  const parsed = parseObject(data);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (typeof value.runId !== "string" || typeof value.result !== "object" || !value.result)
    return { ok: false, error: "result without runId or result" };
  return { ok: true, value: value as unknown as ResultMessage };
}

function isImage(value: unknown): boolean {
  const image = value as { type?: unknown; data?: unknown; mimeType?: unknown } | null;
  return (
    typeof image === "object" &&
    image !== null &&
    image.type === "image" &&
    typeof image.data === "string" &&
    typeof image.mimeType === "string"
  );
}

/** A steer from `<prefix>.steer.<runId>`. */
export function parseSteer(data: Uint8Array): Parsed<SteerMessage> {
  const parsed = parseObject(data);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (value.v !== 1) return { ok: false, error: `unknown steer version ${String(value.v)}` };
  const missing = hasStrings(value, ["runId", "id", "text"]);
  if (missing) return { ok: false, error: `steer without ${missing}` };
  if (value.images !== undefined && !(Array.isArray(value.images) && value.images.every(isImage)))
    return { ok: false, error: "steer images are not a list of {type: image, data, mimeType}" };
  if (value.receivedAt !== undefined && typeof value.receivedAt !== "number")
    return { ok: false, error: "steer receivedAt is not a number" };
  return { ok: true, value: value as unknown as SteerMessage };
}

const STEER_STATUSES: ReadonlySet<unknown> = new Set(["accepted", "duplicate", "rejected"]);

/** A worker's answer to a steer. */
export function parseSteerReply(data: Uint8Array): Parsed<SteerReply> {
  const parsed = parseObject(data);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (typeof value.id !== "string") return { ok: false, error: "steer reply without id" };
  if (!STEER_STATUSES.has(value.status))
    return { ok: false, error: `steer reply with unknown status ${String(value.status)}` };
  return { ok: true, value: value as unknown as SteerReply };
}

/** A steer's applied ack from `<prefix>.steered.<runId>`. */
export function parseSteeredAck(data: Uint8Array): Parsed<SteeredAck> {
  const parsed = parseObject(data);
  if (!parsed.ok) return parsed;
  const missing = hasStrings(parsed.value, ["runId", "id"]);
  if (missing) return { ok: false, error: `steered ack without ${missing}` };
  return { ok: true, value: parsed.value as unknown as SteeredAck };
}

/** A worker heartbeat from `<prefix>.workers`. */
export function parseBeat(data: Uint8Array): Parsed<WorkerBeat> {
  const parsed = parseObject(data);
  if (!parsed.ok) return parsed;
  const missing = hasStrings(parsed.value, ["id", "host"]);
  if (missing) return { ok: false, error: `heartbeat without ${missing}` };
  return { ok: true, value: parsed.value as unknown as WorkerBeat };
}

/** The partition a wake names (`{partition}`), if it names one. */
export function parseWake(data: Uint8Array): number | undefined {
  const parsed = parseObject(data);
  if (!parsed.ok) return undefined;
  const partition = parsed.value.partition;
  return typeof partition === "number" && Number.isInteger(partition) && partition >= 0
    ? partition
    : undefined;
}
