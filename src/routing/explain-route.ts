// `pincer agents route`: the route of a message plus, tier by tier, why each binding did or did not
// match. Scans every binding (diagnostic only) instead of using the index, and its tests check it agrees
// with resolveAgentRoute, so the explanation cannot drift from what routing really does.
import type { CompiledBinding } from "./binding-compile.js";
import {
  bucketTierOf,
  carriesTierField,
  describeBinding,
  explainRejection,
  explainTierNotApplicable,
} from "./explain-text.js";
import { normalizeAgentId } from "./ids.js";
import { buildResolvedRoute } from "./resolve-route.js";
import { getRouteContext, type RouteContext, resolveFallbackAgentId } from "./route-context.js";
import { type NormalizedRouteInput, normalizeRouteId, normalizeRouteInput } from "./route-input.js";
import type { MatchedBy, ResolveAgentRouteInput, ResolvedAgentRoute } from "./types.js";

/** Every tier, most specific first; routing tries them in this order. */
export const ROUTE_TIERS: readonly MatchedBy[] = Object.freeze([
  "binding.peer",
  "binding.peer.parent",
  "binding.peer.wildcard",
  "binding.guild+roles",
  "binding.guild",
  "binding.team",
  "binding.account",
  "binding.channel",
  "default",
]);

/** A binding considered in a tier; `rejected` says why it lost (absent for the winner). */
export interface RouteCandidate {
  bindingIndex: number;
  agentId: string;
  rejected?: string;
}

/** What happened in one tier. */
export interface RouteTierExplanation {
  tier: MatchedBy;
  outcome: "matched" | "no-match" | "not-applicable";
  reason: string;
  candidates: RouteCandidate[];
}

/** The route of a message and the reasoning behind it, for humans (`pincer agents route`). */
export interface RouteExplanation {
  route: ResolvedAgentRoute;
  /** Index in `cfg.bindings` of the winning binding; absent when the default agent got it. */
  matchedBindingIndex?: number;
  /** Tiers from most specific down to (and including) the one that decided. */
  tiers: RouteTierExplanation[];
  /** Config problems worth knowing: ignored bindings, unknown agents, shadowed bindings … */
  notes: string[];
}

interface TierResult {
  explanation: RouteTierExplanation;
  winner?: CompiledBinding;
}

function scopeFor(tier: MatchedBy, message: NormalizedRouteInput) {
  return tier === "binding.peer.parent" ? { ...message, peer: message.parentPeer } : message;
}

interface TierParams {
  tier: MatchedBy;
  /** Valid bindings of the message's channel, in config order. */
  bindings: readonly CompiledBinding[];
  message: NormalizedRouteInput;
  parentPeerEmpty: boolean;
}

function explainTier({ tier, bindings, message, parentPeerEmpty }: TierParams): TierResult {
  const notApplicable = explainTierNotApplicable({ tier, message, parentPeerEmpty });
  const scope = scopeFor(tier, message);
  const peerLabel = tier === "binding.peer.parent" ? "parent peer is" : "message has";
  const candidates: RouteCandidate[] = [];
  let winner: CompiledBinding | undefined;
  let members = 0;
  for (const binding of bindings) {
    const base = { bindingIndex: binding.index, agentId: binding.agentId };
    if (carriesTierField(binding, tier)) {
      candidates.push({
        ...base,
        rejected: `${describeBinding(binding)} is in tier ${binding.tier}`,
      });
      continue;
    }
    if (binding.tier !== bucketTierOf(tier)) continue;
    members += 1;
    if (notApplicable) {
      candidates.push({ ...base, rejected: `not considered: ${notApplicable}` });
      continue;
    }
    const rejected = explainRejection({ binding, message, scope, peerLabel });
    if (rejected) candidates.push({ ...base, rejected });
    else if (winner) {
      const first = `#${winner.index} comes first in config order`;
      candidates.push({
        ...base,
        rejected: `${describeBinding(binding)} also matches, but ${first}`,
      });
    } else {
      winner = binding;
      candidates.push(base);
    }
  }
  let outcome: RouteTierExplanation["outcome"] = "no-match";
  let reason = members === 0 ? "no bindings in this tier" : "no binding in this tier matches";
  if (notApplicable) [outcome, reason] = ["not-applicable", notApplicable];
  if (winner) [outcome, reason] = ["matched", `${describeBinding(winner)} matches`];
  return { explanation: { tier, outcome, reason, candidates }, winner };
}

interface DefaultReasonParams {
  input: ResolveAgentRouteInput;
  context: RouteContext;
  agentId: string;
}

function defaultReason({ input, context, agentId }: DefaultReasonParams): string {
  const requested = typeof input.defaultAgentId === "string" ? input.defaultAgentId.trim() : "";
  if (requested !== "" && agentId !== context.defaultAgentId) {
    return `no binding matched; defaultAgentId gives agent ${agentId}`;
  }
  if (context.roster.size === 0) {
    return `no binding matched; no agents configured, so agent ${agentId}`;
  }
  return `no binding matched; default agent ${agentId}`;
}

function configNotes(context: RouteContext, input: ResolveAgentRouteInput): string[] {
  const notes = context.dropped.map(
    ({ index, reason }) => `binding #${index} is ignored: it ${reason}`,
  );
  for (const binding of context.bindings) {
    if (binding.ownerAgentId === binding.agentId) continue;
    notes.push(
      `${describeBinding(binding)}: agent ${binding.agentId} is not configured, so its traffic goes to the default agent ${binding.ownerAgentId}`,
    );
  }
  const requested = typeof input.defaultAgentId === "string" ? input.defaultAgentId.trim() : "";
  if (
    requested !== "" &&
    resolveFallbackAgentId(context, requested) !== normalizeAgentId(requested)
  ) {
    notes.push(
      `defaultAgentId "${requested}" is not a configured agent; the default agent ${context.defaultAgentId} is used`,
    );
  }
  return notes;
}

function channelNote(context: RouteContext, channel: string): string | undefined {
  if (context.bindings.length === 0 || context.index.has(channel)) return undefined;
  const channels = [...context.index.keys()].join(", ");
  return `no binding is for channel "${channel}" (bindings exist for: ${channels})`;
}

function shadowNotes({ tier: matched, bindings, message }: TierParams): string[] {
  const notes: string[] = [];
  const after = ROUTE_TIERS.slice(ROUTE_TIERS.indexOf(matched) + 1);
  for (const tier of after) {
    if (tier === "default" || explainTierNotApplicable({ tier, message, parentPeerEmpty: false })) {
      continue;
    }
    const scope = scopeFor(tier, message);
    for (const binding of bindings) {
      if (binding.tier !== bucketTierOf(tier)) continue;
      if (explainRejection({ binding, message, scope, peerLabel: "message has" }) !== null)
        continue;
      notes.push(
        `${describeBinding(binding)} would also match in tier ${tier}, but ${matched} is more specific`,
      );
    }
  }
  return notes;
}

/**
 * Resolves a route like {@link resolveAgentRoute} and explains it: for each tier down to the deciding
 * one, which bindings were considered and why they lost. For diagnostics (scans every binding).
 */
export function explainAgentRoute(input: ResolveAgentRouteInput): RouteExplanation {
  const context = getRouteContext(input.cfg);
  const message = normalizeRouteInput(input);
  const bindings = context.bindings.filter((binding) => binding.channel === message.channel);
  const parentPeerEmpty = input.parentPeer != null && normalizeRouteId(input.parentPeer.id) === "";
  const tiers: RouteTierExplanation[] = [];
  let winner: CompiledBinding | undefined;
  let matchedBy: MatchedBy = "default";
  for (const tier of ROUTE_TIERS) {
    if (tier === "default") break;
    const result = explainTier({ tier, bindings, message, parentPeerEmpty });
    tiers.push(result.explanation);
    if (result.winner) {
      [winner, matchedBy] = [result.winner, tier];
      break;
    }
  }
  const match = { matchedBy, binding: winner ?? null };
  const route = buildResolvedRoute({ input, message, context, match });
  if (!winner) {
    const reason = defaultReason({ input, context, agentId: route.agentId });
    tiers.push({ tier: "default", outcome: "matched", reason, candidates: [] });
  } else if (winner.ownerAgentId !== winner.agentId) {
    const last = tiers[tiers.length - 1];
    last.reason += `, but agent ${winner.agentId} is not configured, so agent ${winner.ownerAgentId} gets it`;
  }
  const notes = configNotes(context, input);
  const missing = channelNote(context, message.channel);
  if (missing) notes.push(missing);
  if (winner) notes.push(...shadowNotes({ tier: matchedBy, bindings, message, parentPeerEmpty }));
  return {
    route,
    ...(winner ? { matchedBindingIndex: winner.index } : {}),
    tiers,
    notes,
  };
}
