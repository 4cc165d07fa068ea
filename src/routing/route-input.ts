// Normalization of one inbound message's routing facts, shared by resolution and explanation so both
// see exactly the same channel, account, peers, guild, team and roles.
import { normalizeChatType } from "./chat-type.js";
import { normalizeAccountId } from "./ids.js";
import type { ChatType, ResolveAgentRouteInput } from "./types.js";

/** An inbound peer after normalization; `chatType` is undefined for kinds routing does not know. */
export interface NormalizedPeer {
  /** `direct`, `group`, `channel`, or the unrecognized kind trimmed and lowercased. */
  kind: string;
  chatType: ChatType | undefined;
  /** Trimmed id, case kept (matching is exact); may be empty. */
  id: string;
}

/** The routing facts of a message, normalized once per resolution. */
export interface NormalizedRouteInput {
  /** Trimmed and lowercased; may be empty (session keys then say `unknown`). */
  channel: string;
  accountId: string;
  peer: NormalizedPeer | null;
  /** Only set when the parent peer has a non-empty id. */
  parentPeer: NormalizedPeer | null;
  guildId: string;
  teamId: string;
  memberRoleIds: readonly string[];
}

const NO_ROLES: readonly string[] = Object.freeze([]);

/** Normalizes a peer/guild/team id: strings trimmed, numbers and bigints stringified, else empty. */
export function normalizeRouteId(raw: unknown): string {
  if (typeof raw === "string") return raw.trim();
  if (typeof raw === "number" || typeof raw === "bigint") return String(raw);
  return "";
}

/** Normalizes a channel name: trimmed and lowercased, empty when absent. */
export function normalizeChannel(raw: unknown): string {
  return typeof raw === "string" ? raw.trim().toLowerCase() : "";
}

/** Normalizes an inbound peer; a missing peer stays `null`. */
export function normalizeRoutePeer(
  raw: { kind?: unknown; id?: unknown } | null | undefined,
): NormalizedPeer | null {
  if (!raw || typeof raw !== "object") return null;
  const chatType = normalizeChatType(raw.kind);
  const kind = chatType ?? (typeof raw.kind === "string" ? raw.kind.trim().toLowerCase() : "");
  return { kind, chatType, id: normalizeRouteId(raw.id) };
}

function isNormalizedRoleList(raw: readonly unknown[]): boolean {
  for (const role of raw) {
    if (typeof role !== "string" || role === "" || role.trim() !== role) return false;
  }
  return true;
}

function normalizeRoles(raw: readonly unknown[] | null | undefined): readonly string[] {
  if (!Array.isArray(raw) || raw.length === 0) return NO_ROLES;
  // Common case: already clean strings, used as is (no allocation on the hot path).
  if (isNormalizedRoleList(raw)) return raw as readonly string[];
  const roles: string[] = [];
  for (const role of raw) {
    const id = normalizeRouteId(role);
    if (id !== "") roles.push(id);
  }
  return roles;
}

/** Normalizes the message facts of a route input (the config is read elsewhere). */
export function normalizeRouteInput(input: ResolveAgentRouteInput): NormalizedRouteInput {
  const parentPeer = normalizeRoutePeer(input.parentPeer);
  return {
    channel: normalizeChannel(input.channel),
    accountId: normalizeAccountId(input.accountId),
    peer: normalizeRoutePeer(input.peer),
    parentPeer: parentPeer && parentPeer.id !== "" ? parentPeer : null,
    guildId: normalizeRouteId(input.guildId),
    teamId: normalizeRouteId(input.teamId),
    memberRoleIds: normalizeRoles(input.memberRoleIds),
  };
}
