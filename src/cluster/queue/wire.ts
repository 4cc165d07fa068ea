// What crosses NATS, as JSON: a turn (gateway → worker, on the stream), a run's events and its result
// (worker → gateway, core NATS), a cancel (gateway → workers) and a worker's heartbeat. Parsing never
// throws: a malformed message is an error value the receiver logs (and a turn is terminated).
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
