// Session keys: which conversation an inbound message belongs to. Shapes follow OpenClaw exactly so a
// state directory written by either system keeps its sessions:
//   agent:<agentId>:<mainKey>                                   main session (DMs by default)
//   agent:<agentId>:direct:<peer>                               dmScope per-peer
//   agent:<agentId>:<channel>:direct:<peer>                     dmScope per-channel-peer
//   agent:<agentId>:<channel>:<accountId>:direct:<peer>         dmScope per-account-channel-peer
//   agent:<agentId>:<channel>:<group|channel>:<peer>            groups and channels (groupScope per-group)
import { type IdentityLinks, resolveLinkedPeerId } from "./identity-links.js";
import { normalizeAccountId, normalizeAgentId, normalizeMainKey } from "./ids.js";
import { type NormalizedPeer, normalizeChannel, normalizeRoutePeer } from "./route-input.js";
import type {
  DmScope,
  GroupScope,
  LastRoutePolicy,
  ResolvedAgentRoute,
  RoutePeer,
} from "./types.js";

/** Narrows a config value to a known {@link DmScope}; anything else is `undefined`. */
export function parseDmScope(raw: unknown): DmScope | undefined {
  switch (raw) {
    case "main":
    case "per-peer":
    case "per-channel-peer":
    case "per-account-channel-peer":
      return raw;
    default:
      return undefined;
  }
}

/** Narrows a config value to a known {@link GroupScope}; anything else is `undefined`. */
export function parseGroupScope(raw: unknown): GroupScope | undefined {
  return raw === "per-group" || raw === "main" ? raw : undefined;
}

/**
 * True when a non-direct peer id keeps its case in keys: Signal group ids (base64) and Matrix room
 * ids are case-sensitive, so lowercasing them would merge distinct conversations.
 */
export function preservesPeerIdCase(channel: string, kind: string): boolean {
  if (channel === "signal") return kind === "group";
  if (channel === "matrix") return kind === "group" || kind === "channel";
  return false;
}

/** Inputs for {@link buildAgentMainSessionKey}. */
export interface BuildAgentMainSessionKeyParams {
  agentId: string;
  mainKey?: string | null;
}

/** The agent's main session key, `agent:<agentId>:<mainKey>` (mainKey defaults to `main`). */
export function buildAgentMainSessionKey(params: BuildAgentMainSessionKeyParams): string {
  return `agent:${normalizeAgentId(params.agentId)}:${normalizeMainKey(params.mainKey)}`;
}

/** Already-normalized inputs of {@link composeSessionKey} (the route resolver's fast path). */
export interface ComposeSessionKeyParams {
  /** Normalized agent id. */
  agentId: string;
  /** Normalized channel; empty becomes `unknown`. */
  channel: string;
  /** Normalized account id. */
  accountId: string;
  peer: NormalizedPeer | null;
  dmScope: DmScope;
  groupScope: GroupScope;
  identityLinks?: IdentityLinks | null;
  /** The agent's main session key, returned as is when the message belongs to the main session. */
  mainSessionKey: string;
}

/** Builds a session key from normalized parts; see {@link buildAgentSessionKey} for the rules. */
export function composeSessionKey(params: ComposeSessionKeyParams): string {
  const { agentId, peer } = params;
  const channel = params.channel === "" ? "unknown" : params.channel;
  if (!peer || peer.chatType === "direct") {
    if (!peer || params.dmScope === "main") return params.mainSessionKey;
    const rawId = peer.id === "" ? "unknown" : peer.id;
    const linked = params.identityLinks
      ? resolveLinkedPeerId({ identityLinks: params.identityLinks, channel, peerId: rawId })
      : undefined;
    const peerId = (linked ?? rawId).toLowerCase();
    if (params.dmScope === "per-peer") return `agent:${agentId}:direct:${peerId}`;
    if (params.dmScope === "per-channel-peer")
      return `agent:${agentId}:${channel}:direct:${peerId}`;
    return `agent:${agentId}:${channel}:${params.accountId}:direct:${peerId}`;
  }
  if (params.groupScope === "main") return params.mainSessionKey;
  const kind = peer.kind === "" ? "unknown" : peer.kind;
  const rawId = peer.id === "" ? "unknown" : peer.id;
  const peerId = preservesPeerIdCase(channel, kind) ? rawId : rawId.toLowerCase();
  return `agent:${agentId}:${channel}:${kind}:${peerId}`;
}

/** Inputs for {@link buildAgentSessionKey}. */
export interface BuildAgentSessionKeyParams {
  agentId: string;
  channel: string;
  accountId?: string | null;
  /** No peer means a direct chat without a known partner: the main session. */
  peer?: RoutePeer | null;
  /** Default `main`: every DM shares the main session. */
  dmScope?: DmScope;
  /** Used only when dmScope is not `main`. */
  identityLinks?: IdentityLinks | null;
  mainKey?: string | null;
  /** Default `per-group`. */
  groupScope?: GroupScope;
}

/**
 * Session key of a conversation. DMs follow dmScope (identity links applied unless `main`); groups and
 * channels get their own key unless groupScope is `main`. Ids are lowercased except Signal group and
 * Matrix room ids; an empty peer id becomes `unknown`.
 */
export function buildAgentSessionKey(params: BuildAgentSessionKeyParams): string {
  const agentId = normalizeAgentId(params.agentId);
  return composeSessionKey({
    agentId,
    channel: normalizeChannel(params.channel),
    accountId: normalizeAccountId(params.accountId),
    peer: normalizeRoutePeer(params.peer),
    dmScope: parseDmScope(params.dmScope) ?? "main",
    groupScope: parseGroupScope(params.groupScope) ?? "per-group",
    identityLinks: params.identityLinks,
    mainSessionKey: `agent:${agentId}:${normalizeMainKey(params.mainKey)}`,
  });
}

/** Inputs for {@link buildGroupHistoryKey}. */
export interface BuildGroupHistoryKeyParams {
  channel: string;
  accountId?: string | null;
  peerKind: "group" | "channel";
  peerId: string;
}

/**
 * Key of a group's pending-history buffer, `<channel>:<accountId>:<kind>:<peerId>`. Account-scoped
 * (unlike session keys) because each bot account sees its own group traffic.
 */
export function buildGroupHistoryKey(params: BuildGroupHistoryKeyParams): string {
  const channel = normalizeChannel(params.channel) || "unknown";
  const rawId = params.peerId.trim() || "unknown";
  const peerId = preservesPeerIdCase(channel, params.peerKind) ? rawId : rawId.toLowerCase();
  return `${channel}:${normalizeAccountId(params.accountId)}:${params.peerKind}:${peerId}`;
}

/** Inputs for {@link deriveLastRoutePolicy}. */
export interface DeriveLastRoutePolicyParams {
  sessionKey: string;
  mainSessionKey: string;
}

/** `main` when the conversation lives in the main session, else `session`. */
export function deriveLastRoutePolicy(params: DeriveLastRoutePolicyParams): LastRoutePolicy {
  return params.sessionKey === params.mainSessionKey ? "main" : "session";
}

/** Inputs for {@link resolveInboundLastRouteSessionKey}. */
export interface ResolveInboundLastRouteParams {
  route: Pick<ResolvedAgentRoute, "lastRoutePolicy" | "mainSessionKey">;
  sessionKey: string;
}

/** Session whose "last route" (where replies go) an inbound message updates. */
export function resolveInboundLastRouteSessionKey(params: ResolveInboundLastRouteParams): string {
  return params.route.lastRoutePolicy === "main" ? params.route.mainSessionKey : params.sessionKey;
}
