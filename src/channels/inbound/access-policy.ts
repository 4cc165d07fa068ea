// Step 2 of the inbound pipeline: who may reach an agent. DMs follow `dmPolicy` (pairing by default,
// allowlist, open with "*", disabled; the older `dm` block stands in); groups follow `groupPolicy`
// (allowlist by default, open, disabled), the `groups` map (ids or "*") and `groupAllowFrom`, or in a
// workspace the rules of `workspace-rules.ts` (Discord guilds, Slack channels). Allowlist entries may name an
// access group (`accessGroup:<name>`, expanded to its members on this channel). Pure: the caller
// reads the pairing store's approved senders and passes them in.
import { phoneDigits } from "../../lib/phone-number.js";
import type { AccessGroupsConfig, ChannelGroup } from "../../protocol/config/index.js";
import type { ChannelAccountConfig, ChannelInbound } from "../types.js";
import { type AccessGroupScope, expandAccessGroups } from "./access-groups.js";
import {
  holdsRole,
  resolveWorkspaceRules,
  type WorkspaceRules,
  workspaceDenial,
  workspaceGroup,
  workspaceSenderLists,
} from "./workspace-rules.js";

/** What to do with a message: run it, answer with a pairing code, or drop it (with why). */
export type AccessDecision =
  | { action: "allow"; group?: ChannelGroup }
  | { action: "pair" }
  | { action: "drop"; reason: string };

/** Inputs of {@link decideAccess}. */
export interface DecideAccessParams {
  message: ChannelInbound;
  config: ChannelAccountConfig;
  /** Senders approved through pairing (the allowFrom store file). */
  approved: readonly string[];
  /** `channels.defaults.groupPolicy`. */
  defaultGroupPolicy?: string;
  /** The config's `accessGroups` (what `accessGroup:<name>` entries stand for). */
  accessGroups?: AccessGroupsConfig;
}

type IdList = ReadonlyArray<string | number> | undefined;

function list(value: unknown): IdList {
  return Array.isArray(value) ? (value as Array<string | number>) : undefined;
}

/** Strips a `tg:` / `telegram:` style prefix from an allowFrom entry. */
function bareId(entry: string | number): string {
  const text = String(entry).trim();
  const prefixed = /^[a-z][a-z0-9_-]*:(.+)$/i.exec(text);
  return prefixed ? prefixed[1]! : text;
}

/** Whether a sender is named by an allowFrom-style list ("*", id, @username, or an
 *  `accessGroup:<name>` whose members on `scope.channel` name them; without a scope a group
 *  reference names nobody). A sender whose id is an E.164 number (`+15551234567`) matches any
 *  spelling of that number. */
export function senderAllowed(
  entries: IdList,
  sender: ChannelInbound["sender"],
  scope?: AccessGroupScope,
): boolean {
  if (!entries) return false;
  const username = sender.username?.replace(/^@/, "").toLowerCase();
  const phone = sender.id.startsWith("+") ? phoneDigits(sender.id) : undefined;
  return expandAccessGroups(entries, scope).some((entry) => {
    const id = bareId(entry);
    if (id === "*" || id === sender.id) return true;
    if (phone !== undefined && phoneDigits(id) === phone) return true;
    return username !== undefined && id.replace(/^@/, "").toLowerCase() === username;
  });
}

/** The `groups` entry of a peer: its own id, else its parent's (a forum topic's base group), else "*". */
export function groupEntry(
  config: ChannelAccountConfig,
  peerId: string,
  parentPeerId?: string,
): { entry?: ChannelGroup; hasMap: boolean } {
  const groups = config.groups as Record<string, ChannelGroup> | undefined;
  if (!groups || typeof groups !== "object") return { hasMap: false };
  const parent = parentPeerId === undefined ? undefined : groups[parentPeerId];
  const entry = groups[peerId] ?? parent ?? groups["*"];
  return { hasMap: true, ...(entry ? { entry } : {}) };
}

function groupScope(params: DecideAccessParams): AccessGroupScope {
  return { channel: params.message.channel, groups: params.accessGroups };
}

/** The older `dm` block (`dm.enabled`, `dm.policy`, `dm.allowFrom`), when the config has one. */
function dmBlock(config: ChannelAccountConfig): Record<string, unknown> | undefined {
  const dm = config.dm;
  return typeof dm === "object" && dm !== null && !Array.isArray(dm)
    ? (dm as Record<string, unknown>)
    : undefined;
}

function decideDirect(params: DecideAccessParams): AccessDecision {
  const { message, config, approved } = params;
  const dm = dmBlock(config);
  if (dm?.enabled === false) return { action: "drop", reason: "dm.enabled false" };
  const policy =
    (typeof config.dmPolicy === "string" ? config.dmPolicy : undefined) ??
    (typeof dm?.policy === "string" ? dm.policy : undefined) ??
    "pairing";
  const allowFrom = list(config.allowFrom) ?? list(dm?.allowFrom);
  if (policy === "disabled") return { action: "drop", reason: "dmPolicy disabled" };
  if (policy === "open") {
    return allowFrom?.some((entry) => String(entry).trim() === "*")
      ? { action: "allow" }
      : { action: "drop", reason: 'dmPolicy open requires "*" in allowFrom' };
  }
  const known =
    senderAllowed(allowFrom, message.sender, groupScope(params)) ||
    senderAllowed(approved, message.sender);
  if (known) return { action: "allow" };
  if (policy === "allowlist") return { action: "drop", reason: "sender not in allowFrom" };
  return { action: "pair" };
}

function channelGroupPolicy(params: DecideAccessParams, entry?: ChannelGroup): string {
  const { config } = params;
  return (
    (typeof entry?.groupPolicy === "string" ? entry.groupPolicy : undefined) ??
    (typeof config.groupPolicy === "string" ? config.groupPolicy : undefined) ??
    params.defaultGroupPolicy ??
    "allowlist"
  );
}

/** A message in a workspace with rules (Discord `guilds`, Slack `channels`): the rules decide the
 *  channel; `users` / `roles` (else `groupAllowFrom`) decide the sender; under allowlist a guild
 *  channel needs a guild entry (its own or "*"), a Slack channel its rule. */
function decideWorkspace(params: DecideAccessParams, rules: WorkspaceRules): AccessDecision {
  const { message, config } = params;
  const policy = channelGroupPolicy(params);
  if (policy === "disabled") return { action: "drop", reason: "groupPolicy disabled" };
  const denial = workspaceDenial(rules);
  if (denial) return { action: "drop", reason: denial };
  const { users, roles } = workspaceSenderLists(rules);
  const fallback = users || roles ? undefined : list(config.groupAllowFrom);
  const senderOk =
    users || roles
      ? senderAllowed(users, message.sender, groupScope(params)) ||
        (roles !== undefined && holdsRole(roles, message.memberRoleIds))
      : fallback === undefined || senderAllowed(fallback, message.sender, groupScope(params));
  const listed = rules.guild !== undefined || rules.channel !== undefined;
  if (policy !== "open" && !listed && fallback === undefined) {
    const where = message.guildId !== undefined ? "guilds" : "channels";
    return { action: "drop", reason: `not in ${where} allowlist` };
  }
  if (!senderOk) return { action: "drop", reason: "sender not allowed here" };
  return { action: "allow", group: workspaceGroup(rules) };
}

/** A group DM (Discord group DM, Slack mpim) the adapter admitted under `dm.groupEnabled`. */
function groupDmEnabled(params: DecideAccessParams): boolean {
  const { message, config } = params;
  return (
    message.peer.kind === "group" &&
    message.guildId === undefined &&
    dmBlock(config)?.groupEnabled === true
  );
}

function decideGroup(params: DecideAccessParams): AccessDecision {
  const { message, config } = params;
  if (groupDmEnabled(params)) return { action: "allow" };
  const rules = resolveWorkspaceRules(config, message);
  if (rules) return decideWorkspace(params, rules);
  const { entry, hasMap } = groupEntry(config, message.peer.id, message.parentPeer?.id);
  const policy = channelGroupPolicy(params, entry);
  if (policy === "disabled") return { action: "drop", reason: "groupPolicy disabled" };
  if (entry?.enabled === false) return { action: "drop", reason: "group disabled" };
  const senders = list(entry?.allowFrom) ?? list(config.groupAllowFrom);
  const senderOk =
    senders === undefined || senderAllowed(senders, message.sender, groupScope(params));
  const withGroup = entry ? { group: entry } : {};
  if (policy === "open") {
    return senderOk ? { action: "allow", ...withGroup } : { action: "drop", reason: "sender" };
  }
  // allowlist: the group must be listed (or "*"), or the sender named by groupAllowFrom.
  const groupListed = hasMap && entry !== undefined;
  if (!groupListed && senders === undefined) {
    return { action: "drop", reason: "group not in groups allowlist" };
  }
  if (!senderOk) return { action: "drop", reason: "sender not in groupAllowFrom" };
  return { action: "allow", ...withGroup };
}

/** Decides whether a message may reach an agent. The account's own messages (self-chat) pass here;
 * mention gating decides whether they trigger. */
export function decideAccess(params: DecideAccessParams): AccessDecision {
  if (params.message.fromSelf) {
    const { message } = params;
    const rules = resolveWorkspaceRules(params.config, message);
    if (rules) return { action: "allow", group: workspaceGroup(rules) };
    const { entry } = groupEntry(params.config, message.peer.id, message.parentPeer?.id);
    return { action: "allow", ...(entry ? { group: entry } : {}) };
  }
  return params.message.peer.kind === "direct" ? decideDirect(params) : decideGroup(params);
}
