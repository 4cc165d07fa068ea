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

/** Whether the adapter folded the thread into the peer id (Telegram topics: `<chat>:topic:<id>`). */
function threadInPeer(message: ChannelInbound): boolean {
  return message.threadId !== undefined && message.peer.id.endsWith(`:topic:${message.threadId}`);
}

/** The peer a message's session key is built from: a thread's parent (Discord threads, Slack
 *  replies: `<parent key>:thread:<threadId>`, as the session keys are written), else the peer itself. */
function sessionPeer(message: ChannelInbound): ChannelInbound["peer"] {
  if (!message.threadId || !message.parentPeer || threadInPeer(message)) return message.peer;
  return message.parentPeer.id === "" ? message.peer : message.parentPeer;
}

function withThread(baseSessionKey: string, message: ChannelInbound): string {
  const threadId = message.threadId;
  if (!threadId || threadInPeer(message)) return baseSessionKey;
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
  const peer = sessionPeer(message);
  const sessionKeyOf = (agentId: string): string =>
    withThread(
      agentId === route.agentId && peer === message.peer
        ? route.sessionKey
        : buildAgentSessionKey({
            agentId,
            channel: route.channel,
            accountId: route.accountId,
            peer,
            dmScope: route.dmScope,
            groupScope: route.groupScope,
            mainKey: cfg.session?.mainKey ?? null,
            identityLinks: cfg.session?.identityLinks ?? null,
          }),
      message,
    );
  const group = findBroadcastGroup(cfg, message);
  if (!group || group.agents.length === 0) {
    const target = { agentId: route.agentId, sessionKey: sessionKeyOf(route.agentId) };
    return { route, targets: [target], strategy, mentionGating: true, broadcast: false };
  }
  const targets = group.agents.map((agentId) => ({ agentId, sessionKey: sessionKeyOf(agentId) }));
  return { route, targets, strategy, mentionGating: group.mentionGating, broadcast: true };
}
