// Reading session keys back: agent id and rest, key shape, store/request forms, delivery route.
// Keys compare lowercased, except Signal group ids and Matrix room ids, whose case is significant.

import { DEFAULT_AGENT_ID, DEFAULT_MAIN_KEY, normalizeAgentId } from "./ids.js";
import { buildAgentMainSessionKey } from "./session-key.js";
import { parseThreadSessionSuffix } from "./session-key-thread.js";
import type { ChatType } from "./types.js";

const AGENT_PREFIX = "agent:";
const CASE_KEEPING_REST = /^(?:signal:group:|matrix:(?:channel|group):)/;

/** Lowercases the part of a key after `agent:<id>:`, keeping the case of Signal group / Matrix room ids. */
export function normalizeSessionKeyRest(rest: string): string {
  const lower = rest.toLowerCase();
  const head = CASE_KEEPING_REST.exec(lower);
  return head ? lower.slice(0, head[0].length) + rest.slice(head[0].length) : lower;
}

/** An agent-scoped session key split into its owner and the rest. */
export interface ParsedAgentSessionKey {
  agentId: string;
  rest: string;
}

/**
 * Parses `agent:<agentId>:<rest>` (prefix case-insensitive); null unless both parts are non-empty and the
 * rest does not start with `:`. Both parts come back lowercased (see {@link normalizeSessionKeyRest}).
 */
export function parseAgentSessionKey(
  sessionKey: string | null | undefined,
): ParsedAgentSessionKey | null {
  const raw = (sessionKey ?? "").trim();
  if (raw.slice(0, AGENT_PREFIX.length).toLowerCase() !== AGENT_PREFIX) return null;
  const colon = raw.indexOf(":", AGENT_PREFIX.length);
  if (colon <= AGENT_PREFIX.length) return null;
  const rest = raw.slice(colon + 1);
  if (rest === "" || rest.startsWith(":")) return null;
  return {
    agentId: raw.slice(AGENT_PREFIX.length, colon).toLowerCase(),
    rest: normalizeSessionKeyRest(rest),
  };
}

/** The broad shape of a stored or requested session key. */
export type SessionKeyShape = "missing" | "agent" | "malformed_agent" | "legacy_or_alias";

/** Classifies a key: empty, agent-scoped, `agent:`-prefixed but unparseable, or a legacy/alias key. */
export function classifySessionKeyShape(sessionKey: string | null | undefined): SessionKeyShape {
  const raw = (sessionKey ?? "").trim();
  if (raw === "") return "missing";
  if (parseAgentSessionKey(raw)) return "agent";
  return raw.toLowerCase().startsWith(AGENT_PREFIX) ? "malformed_agent" : "legacy_or_alias";
}

/** Inputs for {@link toAgentStoreSessionKey}. */
export interface ToAgentStoreSessionKeyParams {
  /** Agent that owns bare (non-`agent:`) request keys. */
  agentId: string;
  requestKey: string | null | undefined;
  mainKey?: string | null;
}

/**
 * Store form of a requested key: empty or `main` → the main key; agent keys normalized; bare keys
 * (`Discord:Channel:ABC`) prefixed with `agent:<agentId>:`.
 */
export function toAgentStoreSessionKey(params: ToAgentStoreSessionKeyParams): string {
  const raw = (params.requestKey ?? "").trim();
  if (raw === "" || raw.toLowerCase() === DEFAULT_MAIN_KEY) {
    return buildAgentMainSessionKey({ agentId: params.agentId, mainKey: params.mainKey });
  }
  const parsed = parseAgentSessionKey(raw);
  if (parsed) return `${AGENT_PREFIX}${parsed.agentId}:${parsed.rest}`;
  if (raw.toLowerCase().startsWith(AGENT_PREFIX)) return raw.toLowerCase();
  return `${AGENT_PREFIX}${normalizeAgentId(params.agentId)}:${normalizeSessionKeyRest(raw)}`;
}

/** Request form of a store key: the rest after `agent:<id>:`, or the key itself when not agent-scoped. */
export function toAgentRequestSessionKey(storeKey: string | null | undefined): string | undefined {
  const raw = (storeKey ?? "").trim();
  if (raw === "") return undefined;
  return parseAgentSessionKey(raw)?.rest ?? raw;
}

/**
 * Agent that owns a session key (`agent:Ops:main` → `ops`). Non-agent keys belong to `fallbackAgentId`
 * (default `main`, the legacy rule); never throws.
 */
export function resolveAgentIdFromSessionKey(
  sessionKey: string | null | undefined,
  fallbackAgentId: string = DEFAULT_AGENT_ID,
): string {
  return normalizeAgentId(parseAgentSessionKey(sessionKey)?.agentId ?? fallbackAgentId);
}

/** Where a conversation's replies go, read back from its session key. */
export interface SessionDeliveryRoute {
  channel: string;
  /** Present for per-account-channel-peer DM keys. */
  accountId?: string;
  peerKind: ChatType;
  peerId: string;
  threadId?: string;
}

function asPeerKind(segment: string | undefined): ChatType | undefined {
  return segment === "direct" || segment === "group" || segment === "channel" ? segment : undefined;
}

/**
 * Delivery target encoded in a channel-scoped key (`agent:main:telegram:group:-100:thread:42`); null for
 * keys without a channel (main, per-peer `direct:<id>`, cron, subagent …).
 */
export function parseSessionDeliveryRoute(
  sessionKey: string | null | undefined,
): SessionDeliveryRoute | null {
  const parsed = parseAgentSessionKey(sessionKey);
  if (!parsed) return null;
  const { baseSessionKey, threadId } = parseThreadSessionSuffix(parsed.rest);
  const parts = (baseSessionKey ?? "").split(":");
  const channel = parts[0] ?? "";
  if (channel === "" || asPeerKind(channel)) return null;
  const kindAt = asPeerKind(parts[1]) ? 1 : asPeerKind(parts[2]) ? 2 : -1;
  const peerKind = asPeerKind(parts[kindAt]);
  if (!peerKind) return null;
  const peerId = parts.slice(kindAt + 1).join(":");
  if (peerId === "") return null;
  return {
    channel,
    ...(kindAt === 2 ? { accountId: parts[1] } : {}),
    peerKind,
    peerId,
    ...(threadId ? { threadId } : {}),
  };
}
