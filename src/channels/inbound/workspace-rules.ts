// Access rules of channels inside a workspace: Discord's `guilds.<guild>` entries with their
// per-channel rules, Slack's `channels.<channel>` rules (OpenClaw's shapes, `channel-access.ts`).
// Resolves which rules apply to one message — by id, by slug of the name, by the thread's parent,
// by "*" — into one verdict the access step and mention gating read. Pure.
import type { ChannelGroup, ChannelRule, GuildRule } from "../../protocol/config/index.js";
import type { ChannelAccountConfig, ChannelInbound } from "../types.js";

/** The rules that apply to one message: its guild's entry (Discord) and its channel's rule. */
export interface WorkspaceRules {
  /** `guilds` key that matched (id, slug or "*"), for log lines. */
  guildKey?: string;
  guild?: GuildRule;
  /** True when a `channels` map applies: a channel it does not name is denied. */
  hasChannelMap: boolean;
  channelKey?: string;
  channel?: ChannelRule;
}

/** OpenClaw's slug: lowercase, no leading `#`, runs of spaces as `-`. */
export function slugName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const slug = name.trim().replace(/^#/, "").toLowerCase().replace(/\s+/g, "-");
  return slug === "" ? undefined : slug;
}

function record<T>(value: unknown): Record<string, T> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, T>)
    : undefined;
}

/** The first key of `keys` the map holds (undefined keys skipped). */
function pick<T>(map: Record<string, T>, keys: ReadonlyArray<string | undefined>) {
  for (const key of keys) {
    if (key !== undefined && Object.hasOwn(map, key)) return { key, value: map[key]! };
  }
  return undefined;
}

function guildFor(
  guilds: Record<string, GuildRule>,
  message: ChannelInbound,
): { key: string; value: GuildRule } | undefined {
  const slug = slugName(message.guildName);
  const exact = pick(guilds, [message.guildId, slug]);
  if (exact) return exact;
  const bySlug = Object.entries(guilds).find(
    ([key, entry]) => key !== "*" && slug !== undefined && slugName(entry?.slug) === slug,
  );
  if (bySlug) return { key: bySlug[0], value: bySlug[1] };
  return pick(guilds, ["*"]);
}

/** The channel rule of a message: its own id or slug, else its parent's (a thread), else "*". */
function channelRuleFor(map: Record<string, ChannelRule>, message: ChannelInbound) {
  return pick(map, [
    message.peer.id,
    slugName(message.peerName),
    message.parentPeer?.id,
    slugName(message.parentPeerName),
    "*",
  ]);
}

/** The workspace rules for a group/channel message, or undefined when the message is not in a
 *  workspace whose rules are configured (a Discord guild with `guilds`, a Slack team with
 *  `channels`): the generic `groups` rules apply then. */
export function resolveWorkspaceRules(
  config: ChannelAccountConfig,
  message: ChannelInbound,
): WorkspaceRules | undefined {
  if (message.peer.kind === "direct") return undefined;
  if (message.guildId !== undefined) {
    const guilds = record<GuildRule>(config.guilds);
    if (!guilds) return undefined;
    const guild = guildFor(guilds, message);
    const map = record<ChannelRule>(guild?.value.channels);
    const rule = map ? channelRuleFor(map, message) : undefined;
    return {
      hasChannelMap: map !== undefined,
      ...(guild ? { guildKey: guild.key, guild: guild.value } : {}),
      ...(rule ? { channelKey: rule.key, channel: rule.value } : {}),
    };
  }
  if (message.teamId !== undefined) {
    const map = record<ChannelRule>(config.channels);
    if (!map) return undefined;
    const rule = channelRuleFor(map, message);
    return { hasChannelMap: true, ...(rule ? { channelKey: rule.key, channel: rule.value } : {}) };
  }
  return undefined;
}

/** Why the rules deny the channel itself (before any sender check), or undefined. */
export function workspaceDenial(rules: WorkspaceRules): string | undefined {
  if (rules.guild?.enabled === false) return `guild disabled (guilds.${rules.guildKey})`;
  const where = rules.guildKey !== undefined ? `guilds.${rules.guildKey}.channels` : "channels";
  if (rules.hasChannelMap && !rules.channel) return `channel not in ${where}`;
  if (rules.channel?.allow === false) return `channel denied (${where}.${rules.channelKey})`;
  if (rules.channel?.enabled === false) return `channel disabled (${where}.${rules.channelKey})`;
  return undefined;
}

/** The sender lists the rules set: the channel rule's `users` / `roles` when it sets either (the
 *  channel's audience replaces the guild's), else the guild's. */
export function workspaceSenderLists(rules: WorkspaceRules): {
  users?: ReadonlyArray<string | number>;
  roles?: ReadonlyArray<string | number>;
} {
  const { channel, guild } = rules;
  const source = channel?.users || channel?.roles ? channel : guild;
  return {
    ...(source?.users ? { users: source.users } : {}),
    ...(source?.roles ? { roles: source.roles } : {}),
  };
}

/** Whether the member holds any of the listed roles (ids compared as strings). */
export function holdsRole(
  roles: ReadonlyArray<string | number>,
  memberRoleIds: readonly string[] | undefined,
): boolean {
  if (!memberRoleIds || memberRoleIds.length === 0) return false;
  const held = new Set(memberRoleIds.map(String));
  return roles.some((role) => held.has(String(role).trim()));
}

/** The rules as the one group settings object mention gating and group history read: the channel
 *  rule's keys over the guild's. */
export function workspaceGroup(rules: WorkspaceRules): ChannelGroup {
  const { guild, channel } = rules;
  const requireMention = channel?.requireMention ?? guild?.requireMention;
  const historyLimit = channel?.historyLimit ?? guild?.historyLimit;
  const patterns = [...(guild?.mentionPatterns ?? []), ...(channel?.mentionPatterns ?? [])];
  return {
    ...(requireMention !== undefined ? { requireMention } : {}),
    ...(historyLimit !== undefined ? { historyLimit } : {}),
    ...(patterns.length > 0 ? { mentionPatterns: patterns } : {}),
  };
}
