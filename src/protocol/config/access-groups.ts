// `accessGroups`: named sender lists defined once and referenced from sender allowlists as
// `accessGroup:<name>` entries (channel `allowFrom` / `groupAllowFrom`, a group's `allowFrom`,
// `commands.allowFrom`, `commands.ownerAllowFrom`). A group grants nothing by itself.
import { type Static, Type } from "typebox";
import { acceptedForCompat } from "./common.js";

/** A static group: sender ids per channel id, `"*"` for entries checked on every channel. */
export const MessageSendersAccessGroupSchema = Type.Object(
  {
    type: Type.Literal("message.senders", { description: "A static list of message senders." }),
    members: Type.Record(
      Type.String(),
      Type.Array(Type.Union([Type.String(), Type.Number()]), {
        description: "Sender ids in that channel's allowFrom syntax.",
      }),
      { description: 'Member ids keyed by channel id ("*": every channel).' },
    ),
  },
  { additionalProperties: false, description: "Named senders, per channel." },
);
/** Static type of {@link MessageSendersAccessGroupSchema}. */
export type MessageSendersAccessGroup = Static<typeof MessageSendersAccessGroupSchema>;

/** A Discord channel's audience as a group (accepted; it authorizes nobody without a Discord adapter). */
export const DiscordChannelAudienceAccessGroupSchema = acceptedForCompat(
  Type.Object(
    {
      type: Type.Literal("discord.channelAudience", {
        description: "A Discord channel's audience.",
      }),
      guildId: Type.String({ minLength: 1, description: "Discord guild id." }),
      channelId: Type.String({ minLength: 1, description: "Discord channel id in that guild." }),
      membership: Type.Optional(
        Type.Literal("canViewChannel", { description: "Who counts: senders who can view it." }),
      ),
    },
    { additionalProperties: true, description: "Discord senders who can view a guild channel." },
  ),
  "no issue yet: Discord channel audiences (such a group authorizes nobody)",
);

/** One access group. */
export const AccessGroupSchema = Type.Union(
  [MessageSendersAccessGroupSchema, DiscordChannelAudienceAccessGroupSchema],
  { description: "A named sender group." },
);
/** Static type of {@link AccessGroupSchema}. */
export type AccessGroup = Static<typeof AccessGroupSchema>;

/** `accessGroups`: groups by name (referenced as `accessGroup:<name>`). */
export const AccessGroupsConfigSchema = Type.Record(Type.String(), AccessGroupSchema, {
  description: "Named sender groups, referenced from allowlists as accessGroup:<name>.",
});
/** Static type of {@link AccessGroupsConfigSchema}. */
export type AccessGroupsConfig = Static<typeof AccessGroupsConfigSchema>;
