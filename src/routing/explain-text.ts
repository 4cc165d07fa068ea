// Plain-words reasons used by explainAgentRoute: why a binding did not match, why a tier did not apply.
import {
  accountMatches,
  type BindingScope,
  type CompiledBinding,
  checkBindingScope,
} from "./binding-compile.js";
import type { NormalizedPeer, NormalizedRouteInput } from "./route-input.js";
import type { MatchedBy } from "./types.js";

/** `binding #3 (agent work)`: how explanations name a binding. */
export function describeBinding(binding: CompiledBinding): string {
  return `binding #${binding.index} (agent ${binding.agentId})`;
}

function showPeer(peer: NormalizedPeer): string {
  return `${peer.kind || "(no kind)"}:${peer.id}`;
}

function showList(values: readonly string[]): string {
  return values.length > 0 ? values.join(", ") : "none";
}

/** Inputs for {@link explainRejection}. */
export interface ExplainRejectionParams {
  binding: CompiledBinding;
  message: NormalizedRouteInput;
  /** The message facts the tier checks (the parent peer for `binding.peer.parent`). */
  scope: BindingScope;
  /** `message has` or `parent peer is`: how the checked peer is introduced. */
  peerLabel: string;
}

/** Why a binding does not match a message (account first, then its constraints); null when it matches. */
export function explainRejection(params: ExplainRejectionParams): string | null {
  const { binding, message, scope, peerLabel } = params;
  const who = describeBinding(binding);
  if (!accountMatches(binding, message.accountId)) {
    return binding.accountGiven
      ? `${who} requires accountId ${binding.accountPattern}, message has ${message.accountId}`
      : `${who} has no accountId, so it only matches account default; message has ${message.accountId}`;
  }
  const rejection = checkBindingScope(binding, scope);
  if (rejection === null) return null;
  const want = binding.peer;
  switch (rejection) {
    case "peer":
    case "peer-kind":
    case "peer-id": {
      const required =
        want && want.id === "*" ? `a ${want.kind} peer` : `peer ${want?.kind}:${want?.id}`;
      const actual = scope.peer ? `${peerLabel} ${showPeer(scope.peer)}` : "message has no peer";
      return `${who} requires ${required}, ${actual}`;
    }
    case "guild":
      return `${who} requires guildId ${binding.guildId}, message has ${scope.guildId || "none"}`;
    case "team":
      return `${who} requires teamId ${binding.teamId}, message has ${scope.teamId || "none"}`;
    case "roles":
      return `${who} requires one of roles ${showList(binding.roles ?? [])}, message has ${showList(scope.memberRoleIds)}`;
  }
}

/** Inputs for {@link explainTierNotApplicable}. */
export interface TierApplicabilityParams {
  tier: MatchedBy;
  message: NormalizedRouteInput;
  /** True when the input had a parent peer whose id was empty (it is then ignored). */
  parentPeerEmpty: boolean;
}

function unknownKind(label: string, peer: NormalizedPeer): string {
  return `${label} kind "${peer.kind}" is not direct, group or channel, so no peer binding can match`;
}

/** Why a tier cannot match this message at all (no peer, no guild …), or null when it applies. */
export function explainTierNotApplicable(params: TierApplicabilityParams): string | null {
  const { tier, message } = params;
  const { peer, parentPeer } = message;
  switch (tier) {
    case "binding.peer":
    case "binding.peer.wildcard":
      if (!peer) return "no inbound peer";
      return peer.chatType ? null : unknownKind("peer", peer);
    case "binding.peer.parent":
      if (!parentPeer)
        return params.parentPeerEmpty ? "parent peer has an empty id" : "no parent peer";
      return parentPeer.chatType ? null : unknownKind("parent peer", parentPeer);
    case "binding.guild+roles":
      if (message.guildId === "") return "no guildId";
      return message.memberRoleIds.length > 0 ? null : "no member roles";
    case "binding.guild":
      return message.guildId === "" ? "no guildId" : null;
    case "binding.team":
      return message.teamId === "" ? "no teamId" : null;
    default:
      return null;
  }
}

/** Bucket tier of the bindings a tier evaluates (`binding.peer.parent` uses the exact-peer bindings). */
export function bucketTierOf(tier: MatchedBy): MatchedBy {
  return tier === "binding.peer.parent" ? "binding.peer" : tier;
}

/**
 * True when a binding sets the field a tier is about but competes elsewhere (a guildId binding that
 * also has a peer is a peer binding, not a guild-wide one), so explain can say where it went.
 */
export function carriesTierField(binding: CompiledBinding, tier: MatchedBy): boolean {
  if (binding.tier === bucketTierOf(tier)) return false;
  if (tier === "binding.guild+roles") return binding.roles !== null;
  if (tier === "binding.guild") return binding.guildId !== "";
  if (tier === "binding.team") return binding.teamId !== "";
  return false;
}
