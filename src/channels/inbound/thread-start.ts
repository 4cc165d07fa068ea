// A thread's first message (step 5½ of the inbound pipeline, for messages the adapter marked with
// `threadSession`): each target session of the thread that does not exist yet is started, from a
// copy of its parent conversation's session (`inheritParent`: `<parent key>` is the thread key
// without its `:thread:<id>` suffix), and the thread's earlier messages (`initialHistoryLimit`,
// read through the account's `threadHistory`) come back as context for the prompt, like group
// history. A second message of the same thread arriving meanwhile waits for that start and gets no
// history of its own. Also here: whose group context a thread reply uses (`historyScope`).
import { buildGroupHistoryKey, parseThreadSessionSuffix } from "../../routing/index.js";
import { forkSessionTranscript, type SessionStoreRegistry } from "../../sessions/index.js";
import type { ChannelAccountRuntime, ChannelInbound, Logger } from "../types.js";
import type { GroupHistoryEntry } from "./group-history.js";
import type { RoutedInbound } from "./route.js";

/** What thread starts need; passed in. */
export interface ThreadStartDeps {
  stores: Pick<SessionStoreRegistry, "forAgent">;
  runtime: (channel: string, accountId: string) => ChannelAccountRuntime | undefined;
  log: Logger;
}

/** Starts thread sessions (one per host: it remembers the starts in flight). */
export interface ThreadStarts {
  /** Prepares the sessions of a cleared message's targets; the thread context to prepend. */
  start(params: { message: ChannelInbound; routed: RoutedInbound }): Promise<GroupHistoryEntry[]>;
}

/** The group-context key of a message: its conversation's, or its thread's when the adapter says
 *  thread replies keep their own (`historyScope: "thread"`); undefined for DMs. */
export function groupHistoryKeyOf(message: ChannelInbound): string | undefined {
  if (message.peer.kind === "direct") return undefined;
  const key = buildGroupHistoryKey({
    channel: message.channel,
    accountId: message.accountId,
    peerKind: message.peer.kind,
    peerId: message.peer.id,
  });
  const own = message.threadId && message.threadSession?.historyScope === "thread";
  return own ? `${key}:thread:${message.threadId}` : key;
}

/** Context entries with those already in `first` (same time and text) left out. */
export function withoutRepeats(
  first: readonly GroupHistoryEntry[],
  rest: readonly GroupHistoryEntry[],
): GroupHistoryEntry[] {
  const seen = new Set(first.map((entry) => `${entry.timestamp}\u0000${entry.body}`));
  return [...first, ...rest.filter((entry) => !seen.has(`${entry.timestamp}\u0000${entry.body}`))];
}

/** Creates the thread starts of one host. */
export function createThreadStarts(deps: ThreadStartDeps): ThreadStarts {
  const inFlight = new Map<string, Promise<unknown>>();

  const fork = async (target: { agentId: string; sessionKey: string }) => {
    const { agentId, sessionKey } = target;
    const parentKey = parseThreadSessionSuffix(sessionKey).baseSessionKey!;
    const store = deps.stores.forAgent(agentId);
    if (!store.has(parentKey)) return;
    try {
      const outcome = await forkSessionTranscript({ store, parentKey, childKey: sessionKey });
      deps.log.info({ sessionKey, parentKey, ...outcome }, "thread session started from parent");
    } catch (err) {
      deps.log.warn(
        { sessionKey, parentKey, error: err instanceof Error ? err.message : String(err) },
        "thread session fork failed; the thread starts empty",
      );
    }
  };

  const history = async (message: ChannelInbound, limit: number): Promise<GroupHistoryEntry[]> => {
    const runtime = deps.runtime(message.channel, message.accountId);
    if (!runtime?.threadHistory || !message.threadId || limit <= 0) return [];
    const query = {
      peer: message.parentPeer ?? message.peer,
      threadId: message.threadId,
      beforeMessageId: message.messageId,
      limit,
    };
    return runtime.threadHistory(query).catch((err: unknown) => {
      deps.log.warn(
        { ...query, error: err instanceof Error ? err.message : String(err) },
        "thread history could not be read; the thread starts without it",
      );
      return [];
    });
  };

  return {
    async start({ message, routed }) {
      const settings = message.threadSession;
      if (!settings || !message.threadId) return [];
      if (!settings.inheritParent && settings.initialHistoryLimit <= 0) return [];
      const waiting = routed.targets.flatMap((t) => {
        const pending = inFlight.get(t.sessionKey);
        return pending ? [pending] : [];
      });
      if (waiting.length > 0) {
        await Promise.allSettled(waiting);
        return [];
      }
      const fresh = routed.targets.filter((t) => {
        const { baseSessionKey, threadId } = parseThreadSessionSuffix(t.sessionKey);
        return threadId && baseSessionKey && !deps.stores.forAgent(t.agentId).has(t.sessionKey);
      });
      if (fresh.length === 0) return [];
      // Created now, before any wait: a message of the same thread arriving meanwhile sees them.
      for (const target of fresh)
        deps.stores.forAgent(target.agentId).getOrCreate(target.sessionKey);
      const work = (async () => {
        if (settings.inheritParent) for (const target of fresh) await fork(target);
        return history(message, settings.initialHistoryLimit);
      })();
      for (const target of fresh) inFlight.set(target.sessionKey, work);
      try {
        return await work;
      } finally {
        for (const target of fresh) inFlight.delete(target.sessionKey);
      }
    },
  };
}
