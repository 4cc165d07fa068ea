// One `bindings[]` entry → a normalized binding with its tier, or the reason it is dropped; and the
// constraint check (peer, guild, team, roles) shared by resolution and explanation.
import { normalizeChatType, peerKindMatches } from "./chat-type.js";
import { normalizeAccountId, normalizeAgentId } from "./ids.js";
import { type NormalizedPeer, normalizeChannel, normalizeRouteId } from "./route-input.js";
import { parseDmScope, parseGroupScope } from "./session-key.js";
import type { ChatType, DmScope, GroupScope, MatchedBy, RouteBinding } from "./types.js";

/** Tier a binding competes in (`binding.peer.parent` reuses the peer bucket with the parent peer). */
export type BindingTier = Exclude<MatchedBy, "default" | "binding.peer.parent">;

/** A valid route binding, normalized once per config. */
export interface CompiledBinding {
  /** Position in `cfg.bindings`, so messages can say "binding #3". */
  index: number;
  /** Configured agent id, normalized (absent → `main`). */
  agentId: string;
  /** Agent that actually receives the traffic (unknown agents fall back to the default agent). */
  ownerAgentId: string;
  channel: string;
  /** `*` for every account, else a normalized account id (`default` when absent). */
  accountPattern: string;
  /** False when `match.accountId` was absent (so only the default account matches). */
  accountGiven: boolean;
  /** Peer constraint; id `*` is a wildcard for that kind. */
  peer: { kind: ChatType; id: string } | null;
  guildId: string;
  teamId: string;
  roles: readonly string[] | null;
  tier: BindingTier;
  dmScope?: DmScope;
  groupScope?: GroupScope;
}

/** A `bindings[]` entry that routing ignores, with the reason in plain words. */
export interface DroppedBinding {
  index: number;
  reason: string;
}

/** The first constraint of a binding that a message fails, or null when all match. */
export type BindingRejection = "peer" | "peer-kind" | "peer-id" | "guild" | "team" | "roles";

/** Message facts a binding's constraints are checked against. */
export interface BindingScope {
  peer: NormalizedPeer | null;
  guildId: string;
  teamId: string;
  memberRoleIds: readonly string[];
}

function tierOf(binding: Omit<CompiledBinding, "tier">): BindingTier {
  if (binding.peer) return binding.peer.id === "*" ? "binding.peer.wildcard" : "binding.peer";
  if (binding.guildId !== "") return binding.roles ? "binding.guild+roles" : "binding.guild";
  if (binding.teamId !== "") return "binding.team";
  return binding.accountPattern === "*" ? "binding.channel" : "binding.account";
}

function compileRoles(raw: unknown): readonly string[] | null {
  if (!Array.isArray(raw)) return null;
  const roles = raw.map(normalizeRouteId).filter((role) => role !== "");
  return roles.length > 0 ? roles : null;
}

function compileAccountPattern(raw: unknown): { accountPattern: string; accountGiven: boolean } {
  const trimmed = typeof raw === "string" ? raw.trim() : "";
  if (trimmed === "*") return { accountPattern: "*", accountGiven: true };
  return { accountPattern: normalizeAccountId(trimmed), accountGiven: trimmed !== "" };
}

/** Inputs for {@link compileBinding}. */
export interface CompileBindingParams {
  raw: RouteBinding | null | undefined;
  index: number;
  /** Maps a normalized agent id to the agent that exists (roster fallback). */
  resolveOwner: (agentId: string) => string;
}

/** Normalizes one binding, or says why routing drops it (non-route type, no channel, bad peer). */
export function compileBinding(params: CompileBindingParams): CompiledBinding | DroppedBinding {
  const { raw, index } = params;
  if (!raw || typeof raw !== "object") return { index, reason: "is not an object" };
  if (raw.type != null && raw.type !== "route") {
    return { index, reason: `has type ${JSON.stringify(raw.type)}, not a route binding` };
  }
  const match = raw.match;
  if (!match || typeof match !== "object") return { index, reason: "has no match object" };
  const channel = normalizeChannel(match.channel);
  if (channel === "") return { index, reason: "has no match.channel" };
  let peer: CompiledBinding["peer"] = null;
  if (match.peer != null) {
    const kind = normalizeChatType(match.peer.kind);
    if (!kind) {
      const shown = JSON.stringify(match.peer.kind ?? null);
      return { index, reason: `has peer kind ${shown}, not direct, dm, group or channel` };
    }
    const id = normalizeRouteId(match.peer.id);
    if (id === "") return { index, reason: "has an empty peer id" };
    peer = { kind, id };
  }
  const agentId = normalizeAgentId(raw.agentId);
  const dmScope = parseDmScope(raw.session?.dmScope);
  const groupScope = parseGroupScope(raw.session?.groupScope);
  const partial = {
    index,
    agentId,
    ownerAgentId: params.resolveOwner(agentId),
    channel,
    ...compileAccountPattern(match.accountId),
    peer,
    guildId: normalizeRouteId(match.guildId),
    teamId: normalizeRouteId(match.teamId),
    roles: compileRoles(match.roles),
    ...(dmScope ? { dmScope } : {}),
    ...(groupScope ? { groupScope } : {}),
  };
  return { ...partial, tier: tierOf(partial) };
}

/** Type guard separating compiled bindings from dropped ones. */
export function isCompiledBinding(
  value: CompiledBinding | DroppedBinding,
): value is CompiledBinding {
  return "tier" in value;
}

/** True when a binding's account pattern covers the message account (`*` covers every account). */
export function accountMatches(binding: CompiledBinding, accountId: string): boolean {
  return binding.accountPattern === "*" || binding.accountPattern === accountId;
}

/**
 * Checks every constraint a binding carries except channel/account (those pick its bucket); returns the
 * first one the message fails, or null when the binding matches.
 */
export function checkBindingScope(
  binding: CompiledBinding,
  scope: BindingScope,
): BindingRejection | null {
  const { peer } = binding;
  if (peer) {
    if (!scope.peer) return "peer";
    if (!peerKindMatches(peer.kind, scope.peer.kind)) return "peer-kind";
    if (peer.id !== "*" && peer.id !== scope.peer.id) return "peer-id";
  }
  if (binding.guildId !== "" && binding.guildId !== scope.guildId) return "guild";
  if (binding.teamId !== "" && binding.teamId !== scope.teamId) return "team";
  if (binding.roles && !hasAnyRole(binding.roles, scope.memberRoleIds)) return "roles";
  return null;
}

function hasAnyRole(required: readonly string[], present: readonly string[]): boolean {
  for (const role of required) {
    if (present.includes(role)) return true;
  }
  return false;
}

/** Tier a config binding competes in, or undefined when routing ignores it (for `agents list --bindings`). */
export function classifyBindingTier(
  binding: RouteBinding | null | undefined,
): BindingTier | undefined {
  const compiled = compileBinding({ raw: binding, index: 0, resolveOwner: (agentId) => agentId });
  return isCompiledBinding(compiled) ? compiled.tier : undefined;
}
