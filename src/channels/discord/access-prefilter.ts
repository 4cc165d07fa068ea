// What the adapter itself drops before `receive` (the host's access policy decides the rest): group
// DMs unless `dm.groupEnabled`, and those `dm.groupChannels` does not name (by channel id or name
// slug) when it is set. Pure; the caller logs the reason.
import type { ChannelInbound } from "../index.js";
import type { DiscordAccountSettings } from "./settings.js";

/** A name as rules key it: lowercase, spaces as `-`, no leading `#` (OpenClaw's slugs). */
export function discordSlug(name: string): string {
  return name.trim().replace(/^#/, "").toLowerCase().replace(/\s+/g, "-");
}

/** Why the adapter drops this message, or undefined to hand it on. */
export function prefilterDiscordInbound(
  inbound: ChannelInbound,
  settings: Pick<DiscordAccountSettings, "groupDmEnabled" | "groupDmChannels">,
): string | undefined {
  if (inbound.peer.kind !== "group" || inbound.guildId) return undefined;
  if (!settings.groupDmEnabled) return "group DM dropped: dm.groupEnabled is off";
  const allowed = settings.groupDmChannels;
  if (!allowed) return undefined;
  const keys = new Set(allowed.map(discordSlug));
  const slug = inbound.peerName ? discordSlug(inbound.peerName) : undefined;
  if (keys.has(inbound.peer.id) || (slug && keys.has(slug))) return undefined;
  return `group DM dropped: ${inbound.peer.id} is not in dm.groupChannels`;
}
