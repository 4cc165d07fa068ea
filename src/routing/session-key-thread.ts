// Threads and Telegram forum topics. Slack/Discord threads append `:thread:<id>` to the base key;
// Telegram topics embed the topic in the group peer id (`<chatId>:topic:<id>`) and pass the base group
// as parent peer so bindings on the group still match (`binding.peer.parent`).
import { normalizeRouteId } from "./route-input.js";
import type { RouteId, RoutePeer } from "./types.js";

const THREAD_MARKER = ":thread:";

/** Inputs for {@link resolveThreadSessionKeys}. */
export interface ResolveThreadSessionKeysParams {
  baseSessionKey: string;
  threadId?: RouteId | null;
  /** Session the thread was spawned from; returned as is when a thread id is present. */
  parentSessionKey?: string;
  /** `false` keeps the base key (channels whose threads share the parent conversation). */
  useSuffix?: boolean;
  /** Channel-specific thread id normalizer; default lowercases. */
  normalizeThreadId?: (threadId: string) => string;
}

/** Session keys of a thread message; the result of {@link resolveThreadSessionKeys}. */
export interface ThreadSessionKeys {
  sessionKey: string;
  parentSessionKey?: string;
}

/**
 * Key of a thread's session: `<base>:thread:<threadId>` (threadId lowercased unless a normalizer is
 * given; the base is left as is). An empty thread id returns the base key and no parent.
 */
export function resolveThreadSessionKeys(
  params: ResolveThreadSessionKeysParams,
): ThreadSessionKeys {
  const threadId = normalizeRouteId(params.threadId);
  if (threadId === "") return { sessionKey: params.baseSessionKey, parentSessionKey: undefined };
  const normalize = params.normalizeThreadId ?? ((value: string) => value.toLowerCase());
  const sessionKey =
    params.useSuffix === false
      ? params.baseSessionKey
      : `${params.baseSessionKey}${THREAD_MARKER}${normalize(threadId)}`;
  return { sessionKey, parentSessionKey: params.parentSessionKey };
}

/** A session key split at its thread suffix; the result of {@link parseThreadSessionSuffix}. */
export interface ThreadSessionSuffix {
  baseSessionKey: string | undefined;
  threadId: string | undefined;
}

/** Splits a key at its last `:thread:` (case-insensitive); `threadId` is undefined when there is none. */
export function parseThreadSessionSuffix(
  sessionKey: string | null | undefined,
): ThreadSessionSuffix {
  if (!sessionKey) return { baseSessionKey: undefined, threadId: undefined };
  const at = sessionKey.toLowerCase().lastIndexOf(THREAD_MARKER);
  if (at === -1) return { baseSessionKey: sessionKey, threadId: undefined };
  const threadId = sessionKey.slice(at + THREAD_MARKER.length).trim();
  return {
    baseSessionKey: sessionKey.slice(0, at),
    threadId: threadId === "" ? undefined : threadId,
  };
}

/** Telegram's General topic: forum messages without `message_thread_id` belong to it. */
export const TELEGRAM_GENERAL_TOPIC_ID = "1";

/** Peer id of a Telegram forum topic: `<chatId>:topic:<topicId>`. */
export function buildTelegramTopicPeerId(chatId: RouteId, topicId: RouteId): string {
  return `${normalizeRouteId(chatId)}:topic:${normalizeRouteId(topicId)}`;
}

/** Inputs for {@link resolveTelegramGroupPeers}. */
export interface ResolveTelegramGroupPeersParams {
  chatId: RouteId;
  /** True for forum supergroups; other groups ignore thread ids (reply threads are not sessions). */
  isForum: boolean;
  /** `message_thread_id`; absent in a forum means the General topic (1). */
  topicId?: RouteId | null;
}

/** Route peers of a Telegram group message; the result of {@link resolveTelegramGroupPeers}. */
export interface TelegramGroupPeers {
  peer: RoutePeer;
  /** The base group for forum topics, so group-level bindings still match; else null. */
  parentPeer: RoutePeer | null;
  /** Topic id used (forums only). */
  topicId?: string;
}

/** Peer and parent peer for a Telegram group message, embedding the forum topic in the peer id. */
export function resolveTelegramGroupPeers(
  params: ResolveTelegramGroupPeersParams,
): TelegramGroupPeers {
  const chatId = normalizeRouteId(params.chatId);
  if (!params.isForum) return { peer: { kind: "group", id: chatId }, parentPeer: null };
  const topicId = normalizeRouteId(params.topicId) || TELEGRAM_GENERAL_TOPIC_ID;
  return {
    peer: { kind: "group", id: buildTelegramTopicPeerId(chatId, topicId) },
    parentPeer: { kind: "group", id: chatId },
    topicId,
  };
}
