// Steps 4–5 of the inbound pipeline: route the message (`resolveAgentRoute`, plus the thread suffix)
// and fan it out to a broadcast group (`broadcast["<channel>:<peer>"]` or `broadcast["<peer>"]`),
// each listed agent in its own session for that peer.
import type { BroadcastTarget, OpenClawConfig } from "../../protocol/config/index.js";
import {
  buildAgentSessionKey,
  normalizeAgentId,
  type ResolvedAgentRoute,
  resolveAgentRoute,
  resolveThreadSessionKeys,
} from "../../routing/index.js";
import type { ChannelInbound } from "../types.js";

/** One agent that answers a message, in its session. */
export interface RouteTarget {
  agentId: string;
  sessionKey: string;
}

/** A routed message: the binding's route and every agent that answers (one unless broadcast). */
export interface RoutedInbound {
  route: ResolvedAgentRoute;
  targets: RouteTarget[];
  strategy: "parallel" | "sequential";
  /** False when a broadcast group turns mention gating off. */
  mentionGating: boolean;
  broadcast: boolean;
}

/** Max agents of one broadcast group (as OpenClaw). */
export const MAX_BROADCAST_AGENTS = 16;

function withThread(baseSessionKey: string, message: ChannelInbound): string {
  const threadId = message.threadId;
  if (!threadId) return baseSessionKey;
  // Adapters that fold the thread into the peer id (Telegram topics) already made it unique.
  if (message.peer.id.endsWith(`:topic:${threadId}`)) return baseSessionKey;
  return resolveThreadSessionKeys({ baseSessionKey, threadId }).sessionKey;
}

/** The broadcast group of a peer, if any. */
export function findBroadcastGroup(
  cfg: OpenClawConfig,
  message: ChannelInbound,
): { agents: string[]; mentionGating: boolean } | undefined {
  const broadcast = cfg.broadcast as Record<string, BroadcastTarget | string> | undefined;
  if (!broadcast) return undefined;
  const keys = [`${message.channel}:${message.peer.id}`, message.peer.id];
  if (message.parentPeer) keys.push(`${message.channel}:${message.parentPeer.id}`);
  for (const key of keys) {
    const target = broadcast[key];
    if (!target || typeof target === "string") continue;
    const agents = Array.isArray(target) ? target : target.agents;
    const gating = Array.isArray(target) ? true : target.mentionGating !== false;
    const ids = [...new Set(agents.map((id) => normalizeAgentId(id)))];
    return { agents: ids.slice(0, MAX_BROADCAST_AGENTS), mentionGating: gating };
  }
  return undefined;
}

/** Routes a message and expands a broadcast group into per-agent sessions. */
export function routeInbound(cfg: OpenClawConfig, message: ChannelInbound): RoutedInbound {
  const route = resolveAgentRoute({
    cfg,
    channel: message.channel,
    accountId: message.accountId,
    peer: message.peer,
    ...(message.parentPeer ? { parentPeer: message.parentPeer } : {}),
    ...(message.guildId ? { guildId: message.guildId } : {}),
    ...(message.teamId ? { teamId: message.teamId } : {}),
    ...(message.memberRoleIds ? { memberRoleIds: message.memberRoleIds } : {}),
  });
  const strategy = cfg.broadcast?.strategy === "sequential" ? "sequential" : "parallel";
  const group = findBroadcastGroup(cfg, message);
  if (!group || group.agents.length === 0) {
    const target = { agentId: route.agentId, sessionKey: withThread(route.sessionKey, message) };
    return { route, targets: [target], strategy, mentionGating: true, broadcast: false };
  }
  const targets = group.agents.map((agentId) => ({
    agentId,
    sessionKey: withThread(
      buildAgentSessionKey({
        agentId,
        channel: route.channel,
        accountId: route.accountId,
        peer: message.peer,
        dmScope: route.dmScope,
        groupScope: route.groupScope,
        mainKey: cfg.session?.mainKey ?? null,
        identityLinks: cfg.session?.identityLinks ?? null,
      }),
      message,
    ),
  }));
  return { route, targets, strategy, mentionGating: group.mentionGating, broadcast: true };
}
