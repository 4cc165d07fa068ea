// The durable journal of WS turns (`agent`, `chat.send`) in `<stateDir>/gateway/turn-journal.jsonl`:
// a turn is journaled (fsynced) before its `accepted` ack, and settled with the outcome a retry of its
// idempotency key gets. After a crash the gateway seeds its dedupe and agent.wait from it and resumes
// what was never settled (turn-journal-recover.ts). Settled outcomes are kept for the dedupe window.
import { join } from "node:path";
import type { ImageContent } from "@mariozechner/pi-ai";
import { type JournalItem, type KeyedJournal, openKeyedJournal } from "../../lib/keyed-journal.js";
import type { Logger } from "../../lib/logger.js";
import { DEDUPE_MAX_ENTRIES, DEDUPE_TTL_MS } from "../idempotency-cache.js";
import type { WaitStatus } from "./run-tracker.js";

/** Which method accepted the turn (it decides the shape of the stored outcome). */
export type TurnKind = "agent" | "chat";

/** What the journal keeps of an accepted turn: enough to run it again. */
export interface JournaledTurn {
  kind: TurnKind;
  runId: string;
  agentId: string;
  sessionKey: string;
  message: string;
  /** Images attached to the message (base64), journaled with it so a resumed turn still has them. */
  images?: ImageContent[];
  timeoutSeconds?: number;
  acceptedAt: number;
  /** Restarts that found it cut while it ran (a turn that keeps taking the gateway down is failed). */
  interruptions?: number;
  /** Its run had started when this line was written (a restart that finds it so counts one more
   *  interruption; a turn still waiting in its session's lane does not). */
  running?: boolean;
}

/** What agent.wait answers for a finished turn. */
export interface TurnWait {
  runId: string;
  status: WaitStatus;
  startedAt?: number;
  endedAt?: number;
  error?: string;
}

/** A settled turn: what a retry of its key answers, and its agent.wait state. */
export interface TurnOutcome {
  sessionKey: string;
  agentId: string;
  final: Record<string, unknown>;
  wait: TurnWait;
}

/** The open turn journal (keys are the dedupe keys, `agent:<key>` / `chat:<key>`). */
export type TurnJournal = KeyedJournal<JournaledTurn, TurnOutcome>;

/** One pending turn as loaded. */
export type PendingTurn = JournalItem<JournaledTurn>;

/** Path of the journal. */
export function turnJournalPath(stateDir: string): string {
  return join(stateDir, "gateway", "turn-journal.jsonl");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const optionalNumber = (value: unknown) => value === undefined || typeof value === "number";

const isImage = (value: unknown) =>
  isObject(value) &&
  value.type === "image" &&
  typeof value.data === "string" &&
  typeof value.mimeType === "string";

function readTurn(value: unknown): JournaledTurn | undefined {
  if (!isObject(value)) return undefined;
  const { kind, runId, agentId, sessionKey, message, acceptedAt } = value;
  if (kind !== "agent" && kind !== "chat") return undefined;
  const strings = [runId, agentId, sessionKey, message];
  if (!strings.every((field) => typeof field === "string")) return undefined;
  if (typeof acceptedAt !== "number") return undefined;
  if (
    !optionalNumber(value.timeoutSeconds) ||
    !optionalNumber(value.interruptions) ||
    (value.running !== undefined && typeof value.running !== "boolean") ||
    (value.images !== undefined && !(Array.isArray(value.images) && value.images.every(isImage)))
  )
    return undefined;
  return value as unknown as JournaledTurn;
}

function readOutcome(value: unknown): TurnOutcome | undefined {
  if (!isObject(value) || !isObject(value.final) || !isObject(value.wait)) return undefined;
  if (typeof value.sessionKey !== "string" || typeof value.agentId !== "string") return undefined;
  const { runId, status } = value.wait;
  if (typeof runId !== "string") return undefined;
  if (status !== "ok" && status !== "error" && status !== "timeout") return undefined;
  return value as unknown as TurnOutcome;
}

/** Opens the turn journal of `stateDir` (repairing a torn tail, compacting when large). */
export function openTurnJournal(params: {
  stateDir: string;
  logger: Logger;
  now: () => number;
  maxBytes?: number;
}): TurnJournal {
  return openKeyedJournal({
    path: turnJournalPath(params.stateDir),
    readPending: readTurn,
    readSettled: readOutcome,
    name: "turn journal",
    logger: params.logger,
    now: params.now,
    maxSettled: DEDUPE_MAX_ENTRIES,
    maxSettledAgeMs: DEDUPE_TTL_MS,
    ...(params.maxBytes ? { maxBytes: params.maxBytes } : {}),
  });
}
