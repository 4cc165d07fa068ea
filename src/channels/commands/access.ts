// Who may use a chat command. `commands.allowFrom` (per channel, "*" for every channel; a channel's
// own list wins), when set, is the only allowlist; otherwise `commands.useAccessGroups` (default on)
// asks the channel's allowlists (allowFrom, groupAllowFrom, the group's allowFrom, approved pairings)
// to name the sender, and off lets every sender who reached the agent use them.
// `commands.ownerAllowFrom` senders ("*" ignored) are always authorized; owner-only commands need one.
// In DMs a command needs an authorized sender; in groups only state-changing ones do.
// Every list may name access groups (`accessGroup:<name>`: the group's members on this channel).
// An operator's chat.send is authorized (the connection's scope already allowed the write).
import type { AccessGroupsConfig, CommandsConfig } from "../../protocol/config/index.js";
import type { AccessGroupScope } from "../inbound/access-groups.js";
import { senderAllowed } from "../inbound/access-policy.js";
import type { ChannelInbound } from "../types.js";
import type { CommandChatType, CommandDefinition } from "./types.js";

/** One channel allowlist that could authorize the sender: whether it is set, and names them. */
export interface ChannelAuthorizer {
  configured: boolean;
  allowed: boolean;
}

/** Inputs of {@link decideCommandAccess}. */
export interface CommandAccessParams {
  commands: CommandsConfig | undefined;
  /** The config's `accessGroups`, for `accessGroup:<name>` entries. */
  accessGroups?: AccessGroupsConfig;
  channel: string;
  chatType: CommandChatType;
  sender: ChannelInbound["sender"];
  /** The channel allowlists of this conversation (see {@link channelAuthorizers}). */
  authorizers: readonly ChannelAuthorizer[];
  definition: CommandDefinition;
}

/** Allowed, or refused with a short reason for the chat. */
export type CommandAccess = { allowed: true } | { allowed: false; reason: string };

type IdList = ReadonlyArray<string | number>;

function idList(value: unknown): IdList | undefined {
  return Array.isArray(value) ? (value as IdList) : undefined;
}

/** The sender's `commands.allowFrom` list for this channel, if that key is set at all. */
function commandAllowList(
  commands: CommandsConfig | undefined,
  channel: string,
): IdList | undefined {
  const allowFrom = commands?.allowFrom as Record<string, unknown> | undefined;
  if (!allowFrom || typeof allowFrom !== "object") return undefined;
  return idList(allowFrom[channel]) ?? idList(allowFrom["*"]) ?? [];
}

/** Whether the sender is an owner (`commands.ownerAllowFrom`; a "*" entry names nobody; an
 *  `accessGroup:` entry names the group's members on `scope.channel`). */
export function isCommandOwner(
  commands: CommandsConfig | undefined,
  sender: ChannelInbound["sender"],
  scope?: AccessGroupScope,
): boolean {
  const owners = idList(commands?.ownerAllowFrom)?.filter((entry) => String(entry).trim() !== "*");
  return owners !== undefined && owners.length > 0 && senderAllowed(owners, sender, scope);
}

function scopeOf(params: Pick<CommandAccessParams, "channel" | "accessGroups">): AccessGroupScope {
  return { channel: params.channel, groups: params.accessGroups };
}

/** Whether the sender may use commands at all in this conversation (before the per-command rules). */
export function isCommandAuthorized(params: Omit<CommandAccessParams, "definition">): boolean {
  if (params.chatType === "operator") return true;
  if (isCommandOwner(params.commands, params.sender, scopeOf(params))) return true;
  const list = commandAllowList(params.commands, params.channel);
  if (list) return senderAllowed(list, params.sender, scopeOf(params));
  if (params.commands?.useAccessGroups === false) return true;
  return params.authorizers.some((entry) => entry.configured && entry.allowed);
}

/** Decides one command for one sender. */
export function decideCommandAccess(params: CommandAccessParams): CommandAccess {
  const { definition } = params;
  if (params.chatType === "operator") return { allowed: true };
  if (definition.ownerOnly) {
    return isCommandOwner(params.commands, params.sender, scopeOf(params))
      ? { allowed: true }
      : { allowed: false, reason: `/${definition.name} is for the owner only.` };
  }
  if (params.chatType === "group" && !definition.changesState) return { allowed: true };
  return isCommandAuthorized(params)
    ? { allowed: true }
    : { allowed: false, reason: `You are not allowed to use /${definition.name} here.` };
}

/** The channel allowlists of a conversation: a DM's allowFrom and approved pairings; a group's
 *  own allowFrom, groupAllowFrom and (as in OpenClaw) the DM allowlists too. The configured lists
 *  may name access groups; the approved pairings are plain ids. */
export function channelAuthorizers(params: {
  chatType: "direct" | "group";
  channel: string;
  accessGroups?: AccessGroupsConfig;
  sender: ChannelInbound["sender"];
  allowFrom: unknown;
  approved: readonly string[];
  groupAllowFrom?: unknown;
  groupEntryAllowFrom?: unknown;
}): ChannelAuthorizer[] {
  const scope = scopeOf(params);
  const lists: Array<{ list: IdList | undefined; scope?: AccessGroupScope }> = [
    { list: idList(params.allowFrom), scope },
    { list: params.approved },
  ];
  if (params.chatType === "group") {
    lists.push({ list: idList(params.groupAllowFrom), scope });
    lists.push({ list: idList(params.groupEntryAllowFrom), scope });
  }
  return lists.map(({ list, scope: where }) => ({
    configured: list !== undefined && list.length > 0,
    allowed: list !== undefined && senderAllowed(list, params.sender, where),
  }));
}
