// Access rules of the channels that have workspaces (OpenClaw's shapes): Discord's `guilds.<guildId>`
// entries with their per-channel rules, Slack's `channels.<channelId>` rules, and the older `dm`
// block both accept. Spread into those channels' own shapes (`channels.ts`); the inbound pipeline's
// access step (`src/channels/inbound/`) reads them.
import { type Static, Type } from "typebox";
import { AllowFromListSchema, compatOptional, ToolListPolicySchema } from "./common.js";
import { ToolsBySenderSchema } from "./tools.js";

const ruleCommonProps = {
  enabled: Type.Optional(Type.Boolean({ description: "false ignores it entirely." })),
  requireMention: Type.Optional(
    Type.Boolean({ description: "Only answer when mentioned (default true)." }),
  ),
  users: Type.Optional(
    Type.Array(Type.Union([Type.String(), Type.Number()]), {
      description: 'Senders allowed here (user ids, "discord:"/"slack:" prefixed or bare, or "*").',
    }),
  ),
  roles: Type.Optional(
    Type.Array(Type.Union([Type.String(), Type.Number()]), {
      description: "Member role ids allowed here (Discord): any one of them admits the sender.",
    }),
  ),
  mentionPatterns: Type.Optional(
    Type.Array(Type.String(), { description: "Extra mention regexes here." }),
  ),
  historyLimit: Type.Optional(Type.Integer({ minimum: 0, description: "Context messages." })),
  tools: compatOptional(ToolListPolicySchema, "no issue yet: per-channel tool policy"),
  toolsBySender: compatOptional(ToolsBySenderSchema, "no issue yet: per-sender tool policy"),
  skills: compatOptional(
    Type.Array(Type.String(), { description: "Skill allowlist." }),
    "no issue yet: per-channel skills",
  ),
  systemPrompt: compatOptional(
    Type.String({ description: "Extra system prompt here." }),
    "no issue yet: per-channel system prompt",
  ),
};

/** One channel's rule (Discord: inside a guild; Slack: at the channel level). Keyed by the channel
 *  id, its slug (lowercase name, spaces as `-`, no `#`) or `"*"`; a thread follows its parent's. */
export const ChannelRuleSchema = Type.Object(
  {
    allow: Type.Optional(
      Type.Boolean({
        description: "Admit this channel under groupPolicy allowlist (false: deny).",
      }),
    ),
    ...ruleCommonProps,
  },
  { additionalProperties: true, description: "Per-channel access rule." },
);
/** Static type of {@link ChannelRuleSchema}. */
export type ChannelRule = Static<typeof ChannelRuleSchema>;

/** Channel rules by channel id, slug or `"*"`. Present: a channel it does not name is denied. */
export const ChannelRuleMapSchema = Type.Record(Type.String(), ChannelRuleSchema, {
  description: 'Per-channel rules keyed by channel id, slug or "*" (unlisted channels: denied).',
});

/** `guilds.<guildId>` (Discord): the guild's defaults and its channel rules. */
export const GuildRuleSchema = Type.Object(
  {
    slug: Type.Optional(
      Type.String({ description: "Friendly guild slug (a key may also be the slug)." }),
    ),
    ...ruleCommonProps,
    channels: Type.Optional(ChannelRuleMapSchema),
    reactionNotifications: compatOptional(
      Type.String({ description: "Reaction system events: off, own, all, allowlist." }),
      "no issue yet: reaction notifications",
    ),
  },
  { additionalProperties: true, description: "Per-guild access rules (Discord)." },
);
/** Static type of {@link GuildRuleSchema}. */
export type GuildRule = Static<typeof GuildRuleSchema>;

/** The older `dm` block (OpenClaw still reads it): `dmPolicy` / `allowFrom` win when both are set. */
export const DmBlockSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "false ignores every DM." })),
    policy: Type.Optional(
      Type.Union(
        [
          Type.Literal("pairing"),
          Type.Literal("allowlist"),
          Type.Literal("open"),
          Type.Literal("disabled"),
        ],
        { description: "DM policy (same as dmPolicy)." },
      ),
    ),
    allowFrom: Type.Optional(AllowFromListSchema),
    groupEnabled: Type.Optional(
      Type.Boolean({
        description: "Handle group DMs (Discord group DMs, Slack mpim; default false).",
      }),
    ),
    groupChannels: Type.Optional(
      Type.Array(Type.Union([Type.String(), Type.Number()]), {
        description: "Group DMs handled, by channel id or slug (absent: all, when groupEnabled).",
      }),
    ),
  },
  { additionalProperties: false, description: "Direct-message settings (older shape)." },
);
/** Static type of {@link DmBlockSchema}. */
export type DmBlock = Static<typeof DmBlockSchema>;

/** Discord's access keys, spread into its channel shape. */
export const discordAccessProps = {
  guilds: Type.Optional(
    Type.Record(Type.String(), GuildRuleSchema, {
      description: 'Per-guild rules keyed by guild id, slug or "*".',
    }),
  ),
  dm: Type.Optional(DmBlockSchema),
};

/** Slack's access keys, spread into its channel shape. */
export const slackAccessProps = {
  channels: Type.Optional(ChannelRuleMapSchema),
  dm: Type.Optional(DmBlockSchema),
};
