// Channel turns a crash cut, found again in their session's transcript. Every channel turn marks its
// prompt entry with the inbound keys it answers (next to its runId). A message the inbound journal
// replays after a restart whose turn's prompt already landed is not run as a new turn — its text
// would be in the session twice, and a reply that had landed would be asked of the model again —
// but re-queued as that run: it resumes from the transcript (or answers with the reply that landed)
// and answers every message of that prompt at once. A message whose prompt never landed runs afresh.
import type { InboundMessage } from "../runtime/lanes/index.js";
import {
  isMessageEntry,
  type SessionStoreApi,
  type SessionStoreRegistry,
  type TranscriptEntry,
  TranscriptNotLoadedError,
} from "../sessions/index.js";
import { inboundDedupeKey } from "./inbound/redelivery-filter.js";
import type { ChannelInbound, Logger } from "./types.js";

/** A channel turn's prompt as its transcript holds it. */
export interface RecordedTurn {
  runId: string;
  /** Inbound keys of every message the turn answers. */
  keys: string[];
  /** The prompt's text (what the turn is run with if it must run again). */
  text: string;
}

function promptText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: string; text?: unknown }) =>
      part?.type === "text" && typeof part.text === "string" ? part.text : "",
    )
    .join("");
}

/** The latest prompt of `sessionKey` marked with inbound key `key`, if one landed. */
export function findRecordedTurn(params: {
  store: SessionStoreApi;
  sessionKey: string;
  key: string;
}): RecordedTurn | undefined {
  if (!params.store.get(params.sessionKey)) return undefined;
  let entries: readonly TranscriptEntry[];
  try {
    entries = params.store.readTranscript(params.sessionKey)?.entries ?? [];
  } catch (err) {
    // A PostgreSQL transcript not loaded (a replay loads its targets first: only if evicted since).
    if (err instanceof TranscriptNotLoadedError) return undefined;
    throw err;
  }
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (!isMessageEntry(entry) || entry.message.role !== "user") continue;
    const { runId, inboundKeys } = entry as { runId?: unknown; inboundKeys?: unknown };
    if (typeof runId !== "string" || !Array.isArray(inboundKeys)) continue;
    if (!inboundKeys.includes(params.key)) continue;
    const keys = inboundKeys.filter((k): k is string => typeof k === "string");
    return { runId, keys, text: promptText(entry.message.content) };
  }
  return undefined;
}

/** What recovery needs of a queued message's reply route (dispatch.ts's `ReplyRoute`). */
export interface RecoverableRoute {
  agentId: string;
  sessionKey: string;
  inbound: ChannelInbound;
  body: string;
  /** A turn a restart cut, re-queued as its run: every message it answers (their inbound keys). */
  recovered?: { runId: string; keys: string[] };
}

/** The inbound keys a queued message's turn answers: its own, or all of a recovered turn's. */
export function routeKeys(route: RecoverableRoute): string[] {
  return route.recovered?.keys ?? [inboundDedupeKey(route.inbound)];
}

/** The inbound keys of the messages a turn answers. */
export function answeredKeys(messages: readonly InboundMessage<RecoverableRoute>[]): string[] {
  return messages.flatMap((m) => (m.payload ? routeKeys(m.payload) : []));
}

/** What a replayed message does for one target: run as a new turn (nothing of it landed), nothing
 *  (the re-queued turn of its prompt answers it), or re-queue that cut turn as `route`. */
export type ReplayPlan<R> = { kind: "new" } | { kind: "answered" } | { kind: "requeue"; route: R };

/** Plans replayed messages; remembers (per host) the cut turns it re-queued, so a message one of
 *  them answers is not queued again. */
export interface TurnRecovery {
  plan<R extends RecoverableRoute>(route: R): ReplayPlan<R>;
}

/** Creates the recovery of cut channel turns over the agents' session stores. */
export function createTurnRecovery(deps: {
  stores: SessionStoreRegistry;
  log: Logger;
}): TurnRecovery {
  const requeued = new Set<string>();
  const id = (agentId: string, sessionKey: string, key: string) =>
    `${agentId}\u0000${sessionKey}\u0000${key}`;
  return {
    plan(route) {
      const key = inboundDedupeKey(route.inbound);
      const { agentId, sessionKey } = route;
      if (requeued.has(id(agentId, sessionKey, key))) return { kind: "answered" };
      const turn = findRecordedTurn({ store: deps.stores.forAgent(agentId), sessionKey, key });
      if (!turn) return { kind: "new" };
      for (const k of turn.keys) requeued.add(id(agentId, sessionKey, k));
      deps.log.info(
        { key, runId: turn.runId, sessionKey },
        "resuming a channel turn cut by a restart",
      );
      const recovered = { runId: turn.runId, keys: turn.keys };
      return { kind: "requeue", route: { ...route, body: turn.text, recovered } };
    },
  };
}
