// Inbound message → agent and session. Tiers are tried most specific first (peer, parent peer, wildcard
// peer, guild+roles, guild, team, account, channel, default); within a tier the first binding in config
// order whose every constraint matches wins. Pure and total: never throws for config problems.
import { type BindingScope, type CompiledBinding, checkBindingScope } from "./binding-compile.js";
import { lookupTierBuckets, type TierBuckets } from "./binding-index.js";
import { peerLookupKind } from "./chat-type.js";
import { normalizeMainKey } from "./ids.js";
import { getRouteContext, type RouteContext, resolveFallbackAgentId } from "./route-context.js";
import {
  type NormalizedPeer,
  type NormalizedRouteInput,
  normalizeRouteInput,
} from "./route-input.js";
import { composeSessionKey, parseDmScope, parseGroupScope } from "./session-key.js";
import type { MatchedBy, ResolveAgentRouteInput, ResolvedAgentRoute } from "./types.js";

/** The tier that decided a route and the binding that won it (null for `default`). */
export interface RouteMatch {
  matchedBy: MatchedBy;
  binding: CompiledBinding | null;
}

const DEFAULT_MATCH: RouteMatch = Object.freeze({ matchedBy: "default", binding: null });

function firstMatch(
  candidates: readonly CompiledBinding[] | undefined,
  scope: BindingScope,
): CompiledBinding | undefined {
  if (!candidates) return undefined;
  for (const binding of candidates) {
    if (checkBindingScope(binding, scope) === null) return binding;
  }
  return undefined;
}

function peerCandidates(
  buckets: TierBuckets,
  peer: NormalizedPeer | null,
): CompiledBinding[] | undefined {
  return peer?.chatType
    ? buckets.byPeer.get(peerLookupKind(peer.chatType))?.get(peer.id)
    : undefined;
}

/** Finds the winning tier and binding with index lookups only (no scan of all bindings). */
function matchRoute(context: RouteContext, message: NormalizedRouteInput): RouteMatch {
  const buckets = lookupTierBuckets(context.index, message.channel, message.accountId);
  if (!buckets) return DEFAULT_MATCH;
  const { peer, parentPeer, guildId, teamId } = message;
  let binding = firstMatch(peerCandidates(buckets, peer), message);
  if (binding) return { matchedBy: "binding.peer", binding };
  if (parentPeer) {
    const scope = { ...message, peer: parentPeer };
    binding = firstMatch(peerCandidates(buckets, parentPeer), scope);
    if (binding) return { matchedBy: "binding.peer.parent", binding };
  }
  if (peer?.chatType) {
    binding = firstMatch(buckets.byPeerWildcard.get(peerLookupKind(peer.chatType)), message);
    if (binding) return { matchedBy: "binding.peer.wildcard", binding };
  }
  if (guildId !== "") {
    if (message.memberRoleIds.length > 0) {
      binding = firstMatch(buckets.byGuildWithRoles.get(guildId), message);
      if (binding) return { matchedBy: "binding.guild+roles", binding };
    }
    binding = firstMatch(buckets.byGuild.get(guildId), message);
    if (binding) return { matchedBy: "binding.guild", binding };
  }
  if (teamId !== "") {
    binding = firstMatch(buckets.byTeam.get(teamId), message);
    if (binding) return { matchedBy: "binding.team", binding };
  }
  binding = firstMatch(buckets.byAccount, message);
  if (binding) return { matchedBy: "binding.account", binding };
  binding = firstMatch(buckets.byChannel, message);
  if (binding) return { matchedBy: "binding.channel", binding };
  return DEFAULT_MATCH;
}

/** Inputs for {@link buildResolvedRoute}. */
export interface BuildResolvedRouteParams {
  input: ResolveAgentRouteInput;
  message: NormalizedRouteInput;
  context: RouteContext;
  match: RouteMatch;
}

/**
 * Turns a match into the route: owner agent, effective dmScope/groupScope (matched binding, then input,
 * then `cfg.session`, then defaults) and the session keys.
 */
export function buildResolvedRoute(params: BuildResolvedRouteParams): ResolvedAgentRoute {
  const { input, message, context, match } = params;
  const session = input.cfg.session;
  const agentId = match.binding
    ? match.binding.ownerAgentId
    : resolveFallbackAgentId(context, input.defaultAgentId);
  const dmScope =
    match.binding?.dmScope ??
    parseDmScope(input.dmScope) ??
    parseDmScope(session?.dmScope) ??
    "main";
  const groupScope =
    match.binding?.groupScope ??
    parseGroupScope(input.groupScope) ??
    parseGroupScope(session?.groupScope) ??
    "per-group";
  const mainSessionKey = `agent:${agentId}:${normalizeMainKey(session?.mainKey)}`;
  const sessionKey = composeSessionKey({
    agentId,
    channel: message.channel,
    accountId: message.accountId,
    peer: message.peer,
    dmScope,
    groupScope,
    identityLinks: session?.identityLinks,
    mainSessionKey,
  });
  return {
    agentId,
    channel: message.channel,
    accountId: message.accountId,
    dmScope,
    groupScope,
    sessionKey,
    mainSessionKey,
    lastRoutePolicy: sessionKey === mainSessionKey ? "main" : "session",
    matchedBy: match.matchedBy,
  };
}

/**
 * Picks the agent and session for an inbound message from `cfg.bindings`. Bindings are indexed once per
 * config object, so this is a few Map lookups; unknown binding agents fall back to the default agent.
 */
export function resolveAgentRoute(input: ResolveAgentRouteInput): ResolvedAgentRoute {
  const context = getRouteContext(input.cfg);
  const message = normalizeRouteInput(input);
  return buildResolvedRoute({ input, message, context, match: matchRoute(context, message) });
}
