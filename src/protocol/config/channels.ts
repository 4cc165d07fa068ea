// `channels`: one shared shape for every channel (whatsapp, telegram, ... or any plugin channel).
import { type Static, type TSchema, Type } from "typebox";
import { BlockStreamingCoalesceSchema } from "./agent-parts.js";
import { blueBubblesProps } from "./bluebubbles.js";
import { discordAccessProps, slackAccessProps } from "./channel-access.js";
import { channelCredentialProps } from "./channel-credentials.js";
import { previewStreamingProps } from "./channel-streaming.js";
import {
  AllowFromListSchema,
  acceptedForCompat,
  compatOptional,
  ToolListPolicySchema,
} from "./common.js";
import { discordProps } from "./discord.js";
import { iMessageProps } from "./imessage.js";
import { signalProps } from "./signal.js";
import { slackProps } from "./slack.js";
import { ToolsBySenderSchema } from "./tools.js";
import { whatsAppCloudProps } from "./whatsapp-cloud.js";
import { whatsAppWebProps } from "./whatsapp-web.js";

/** Who may start a direct conversation. `open` requires `"*"` in `allowFrom`. */
export const DmPolicySchema = Type.Union(
  [
    Type.Literal("pairing"),
    Type.Literal("allowlist"),
    Type.Literal("open"),
    Type.Literal("disabled"),
  ],
  { description: "DM policy: pairing (default), allowlist, open or disabled." },
);
/** Static type of {@link DmPolicySchema}. */
export type DmPolicy = Static<typeof DmPolicySchema>;

/** How group traffic is admitted. */
export const GroupPolicySchema = Type.Union(
  [Type.Literal("allowlist"), Type.Literal("open"), Type.Literal("disabled")],
  { description: "Group policy: allowlist (default), open or disabled." },
);
/** Static type of {@link GroupPolicySchema}. */
export type GroupPolicy = Static<typeof GroupPolicySchema>;

/** Which context from groups the agent sees. */
export const ContextVisibilitySchema = Type.Union(
  [Type.Literal("all"), Type.Literal("allowlist"), Type.Literal("allowlist_quote")],
  { description: "Group context visibility: all, allowlist or allowlist_quote." },
);
/** Static type of {@link ContextVisibilitySchema}. */
export type ContextVisibility = Static<typeof ContextVisibilitySchema>;

/** Outbound retry policy (OpenClaw's shape): only failures that certainly did not deliver retry. */
export const ChannelRetrySchema = Type.Object(
  {
    attempts: Type.Optional(
      Type.Integer({ minimum: 1, description: "Sends of one message, the first included (10)." }),
    ),
    minDelayMs: Type.Optional(
      Type.Number({ minimum: 0, description: "First backoff in ms, doubled per retry (1000)." }),
    ),
    maxDelayMs: Type.Optional(
      Type.Number({ minimum: 0, description: "Longest backoff in ms (300000); retry_after wins." }),
    ),
    jitter: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: "Backoff spread as a fraction (0.1)." }),
    ),
  },
  { additionalProperties: false, description: "Outbound delivery retry policy." },
);
/** Static type of {@link ChannelRetrySchema}. */
export type ChannelRetry = Static<typeof ChannelRetrySchema>;

/** Settings of one group/room/guild (key: its id, or `"*"` for every group). */
export const ChannelGroupSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "Handle this group." })),
    requireMention: Type.Optional(
      Type.Boolean({ description: "Only reply when mentioned (default true)." }),
    ),
    allowFrom: Type.Optional(AllowFromListSchema),
    groupPolicy: Type.Optional(GroupPolicySchema),
    tools: compatOptional(ToolListPolicySchema, "no issue yet: per-group tool policy"),
    toolsBySender: compatOptional(ToolsBySenderSchema, "no issue yet: per-sender tool policy"),
    skills: compatOptional(
      Type.Array(Type.String(), { description: "Skill allowlist." }),
      "no issue yet: per-group skills",
    ),
    systemPrompt: compatOptional(
      Type.String({ description: "Extra system prompt for the group." }),
      "no issue yet: per-group system prompt",
    ),
    historyLimit: Type.Optional(Type.Integer({ minimum: 0, description: "Context messages." })),
    mentionPatterns: Type.Optional(
      Type.Array(Type.String(), { description: "Extra mention regexes." }),
    ),
    users: compatOptional(AllowFromListSchema, "issue 16 (Discord)"),
    roles: compatOptional(
      Type.Array(Type.String(), { description: "Allowed role ids." }),
      "issue 16 (Discord)",
    ),
    topics: compatOptional(
      Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
        description: "Per-topic/thread overrides (Telegram forum topics).",
      }),
      "no issue yet: per-topic overrides (a topic gets its own session; the group's settings apply)",
    ),
    channels: compatOptional(
      Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
        description: "Per-channel overrides inside a guild/workspace.",
      }),
      "issue 16 (Discord and Slack channels)",
    ),
  },
  { additionalProperties: true, description: "Group settings." },
);
/** Static type of {@link ChannelGroupSchema}. */
export type ChannelGroup = Static<typeof ChannelGroupSchema>;

const groupMapSchema = Type.Record(Type.String(), ChannelGroupSchema, {
  description: 'Per-group settings keyed by group id or "*".',
});

/** Access, group and delivery settings shared by channels and their accounts. */
const channelPolicyProps = {
  enabled: Type.Optional(Type.Boolean({ description: "Start this channel/account." })),
  commands: Type.Optional(
    Type.Object(
      {
        native: Type.Optional(
          Type.Union([Type.Boolean(), Type.Literal("auto")], {
            description:
              "This channel's/account's command menu, over the top-level commands.native.",
          }),
        ),
        nativeSkills: compatOptional(
          Type.Union([Type.Boolean(), Type.Literal("auto")], {
            description: "Register native skill commands here (true, false or auto).",
          }),
          "no issue yet: skills are not chat commands yet",
        ),
      },
      { additionalProperties: false, description: "Per-channel chat command settings." },
    ),
  ),
  name: Type.Optional(Type.String({ description: "Display name." })),
  dmPolicy: Type.Optional(DmPolicySchema),
  allowFrom: Type.Optional(
    Type.Array(Type.Union([Type.String(), Type.Number()]), {
      description: 'Allowed DM senders ("*" = anyone; required for dmPolicy open).',
    }),
  ),
  groupPolicy: Type.Optional(GroupPolicySchema),
  groupAllowFrom: Type.Optional(
    Type.Array(Type.Union([Type.String(), Type.Number()]), {
      description: "Senders allowed to trigger the agent in groups.",
    }),
  ),
  contextVisibility: compatOptional(
    ContextVisibilitySchema,
    "no issue yet: group context visibility",
  ),
  groups: Type.Optional(groupMapSchema),
  guilds: compatOptional(groupMapSchema, "issue 16 (Discord)"),
  rooms: compatOptional(groupMapSchema, "no issue yet: Matrix rooms"),
  channels: compatOptional(groupMapSchema, "issue 16 (Discord and Slack channels)"),
  requireMention: Type.Optional(
    Type.Boolean({ description: "Require a mention in groups by default." }),
  ),
  mentionPatterns: Type.Optional(
    Type.Union([Type.Array(Type.String()), Type.Record(Type.String(), Type.Unknown())], {
      description: "Mention regexes (or a mention-pattern policy object).",
    }),
  ),
  historyLimit: Type.Optional(Type.Integer({ minimum: 0, description: "Group context messages." })),
  dmHistoryLimit: compatOptional(
    Type.Integer({ minimum: 0, description: "DM context turns." }),
    "no issue yet: DM history",
  ),
  dms: compatOptional(
    Type.Record(
      Type.String(),
      Type.Object(
        { historyLimit: Type.Optional(Type.Integer({ minimum: 0, description: "DM turns." })) },
        { additionalProperties: true, description: "Per-DM settings." },
      ),
      { description: "Per-DM settings keyed by peer id." },
    ),
    "no issue yet: DM history",
  ),
  textChunkLimit: Type.Optional(
    Type.Integer({ minimum: 1, description: "Max characters per outbound message." }),
  ),
  chunkMode: compatOptional(
    Type.Union([Type.Literal("length"), Type.Literal("newline")], {
      description: "Outbound chunking: length or newline.",
    }),
    "no issue yet: newline chunking",
  ),
  streaming: compatOptional(
    Type.Union([Type.Boolean(), Type.String(), Type.Record(Type.String(), Type.Unknown())], {
      description: "Preview streaming: boolean, mode (off|partial|block|progress) or object.",
    }),
    "no issue yet: preview streaming",
  ),
  blockStreaming: compatOptional(
    Type.Boolean({ description: "Send block replies as they finish." }),
    "no issue yet: block streaming",
  ),
  blockStreamingCoalesce: compatOptional(
    BlockStreamingCoalesceSchema,
    "no issue yet: block streaming",
  ),
  replyToMode: Type.Optional(
    Type.Union(
      [Type.Literal("off"), Type.Literal("first"), Type.Literal("all"), Type.Literal("batched")],
      {
        description: "Native reply threading.",
      },
    ),
  ),
  responsePrefix: compatOptional(
    Type.String({ description: "Prefix for outbound replies." }),
    "no issue yet: reply prefix",
  ),
  retry: Type.Optional(ChannelRetrySchema),
  mediaMaxMb: Type.Optional(Type.Number({ minimum: 0, description: "Max media size (MB)." })),
  mediaLocalRoots: Type.Optional(
    Type.Array(Type.String(), {
      description:
        "Extra directories reply media may attach local files from (besides the agent workspace; never the state dir).",
    }),
  ),
  defaultTo: compatOptional(
    Type.Union([Type.String(), Type.Number()], { description: "Default delivery target." }),
    "no issue yet: default delivery target",
  ),
  configWrites: compatOptional(
    Type.Boolean({ description: "Allow config writes from chat." }),
    "issue 14 (/config)",
  ),
  actions: compatOptional(
    Type.Record(Type.String(), Type.Unknown(), { description: "Channel action toggles." }),
    "no issue yet: channel actions",
  ),
  heartbeat: compatOptional(
    Type.Record(Type.String(), Type.Unknown(), { description: "Heartbeat visibility." }),
    "no issue yet: per-channel heartbeat visibility",
  ),
};

/** The channel shape (channel level and each account) with a channel's own keys over the shared
 *  ones: the compat marks are per schema node, so a key one channel acts on stays marked elsewhere. */
function channelShape<P extends Record<string, TSchema>>(own: P) {
  const account = Type.Object(
    { ...channelPolicyProps, ...channelCredentialProps, ...own },
    { additionalProperties: true, description: "Channel account settings." },
  );
  const channel = Type.Object(
    {
      ...channelPolicyProps,
      ...channelCredentialProps,
      ...own,
      accounts: Type.Optional(
        Type.Record(Type.String(), account, {
          description: "Accounts keyed by account id (overrides the channel fields).",
        }),
      ),
      defaultAccount: Type.Optional(
        Type.String({ description: "Account used when none is given." }),
      ),
    },
    { additionalProperties: true, description: "Channel settings." },
  );
  return { account, channel };
}

const sharedShape = channelShape({});

/** One account of a multi-account channel: the channel fields plus its own credentials. */
export const ChannelAccountSchema = sharedShape.account;
/** Static type of {@link ChannelAccountSchema}. */
export type ChannelAccount = Static<typeof ChannelAccountSchema>;

/** `channels.<name>`: access policy, groups, delivery, credentials and accounts. */
export const ChannelConfigSchema = sharedShape.channel;
/** Static type of {@link ChannelConfigSchema}. */
export type ChannelConfig = Static<typeof ChannelConfigSchema>;

/** `channels.whatsapp`: the channel shape with the WhatsApp keys real (transport, the Web keys,
 *  the Cloud API keys). */
export const WhatsAppChannelConfigSchema = channelShape({
  ...whatsAppWebProps,
  ...whatsAppCloudProps,
}).channel;

/** `channels.telegram`: the channel shape with `streaming` real (reply previews by editMessageText). */
export const TelegramChannelConfigSchema = channelShape({ ...previewStreamingProps }).channel;

/** `channels.discord`: the channel shape with Discord's keys real (the token, the REST base,
 *  `allowBots`, `guilds.<id>` rules with their channel rules, the older `dm` block, `streaming`). */
export const DiscordChannelConfigSchema = channelShape({
  ...discordAccessProps,
  ...discordProps,
  ...previewStreamingProps,
}).channel;

/** `channels.slack`: the channel shape with Slack's keys real (mode, tokens, signing secret, webhook
 *  path, API base, allowBots, `streaming` by chat.update) and its access keys (`channels.<id>` rules,
 *  `dm`). */
export const SlackChannelConfigSchema = channelShape({
  ...slackAccessProps,
  ...slackProps,
  ...previewStreamingProps,
}).channel;

/** `channels.signal`: the channel shape with Signal's keys real (the number, the signal-cli daemon
 *  it talks to or starts, attachments, stories, read receipts). */
export const SignalChannelConfigSchema = channelShape({ ...signalProps }).channel;

/** `channels.bluebubbles`: the channel shape with BlueBubbles' keys real (server URL, password,
 *  webhook path). */
export const BlueBubblesChannelConfigSchema = channelShape({ ...blueBubblesProps }).channel;

/** `channels.imessage`: the channel shape with the imsg bridge's keys real (binary, database,
 *  service, region, attachments). */
export const IMessageChannelConfigSchema = channelShape({ ...iMessageProps }).channel;

/** `channels.defaults`: defaults applied to every channel. */
export const ChannelDefaultsSchema = Type.Object(
  {
    groupPolicy: Type.Optional(GroupPolicySchema),
    contextVisibility: compatOptional(
      ContextVisibilitySchema,
      "no issue yet: group context visibility",
    ),
    heartbeat: compatOptional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Heartbeat visibility." }),
      "no issue yet: per-channel heartbeat visibility",
    ),
    botLoopProtection: compatOptional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Bot loop protection." }),
      "no issue yet: bot loop protection",
    ),
  },
  { additionalProperties: true, description: "Defaults for every channel." },
);
/** Static type of {@link ChannelDefaultsSchema}. */
export type ChannelDefaults = Static<typeof ChannelDefaultsSchema>;

/** `channels.modelByChannel`: channel -> chat/group id -> model ref. */
export const ModelByChannelSchema = Type.Record(
  Type.String(),
  Type.Record(Type.String(), Type.String()),
  { description: "Model overrides: channel -> chat id -> provider/model." },
);
/** Static type of {@link ModelByChannelSchema}. */
export type ModelByChannel = Static<typeof ModelByChannelSchema>;

/** `channels`: known channels listed by name; any other key is a channel with the same shape. */
export const ChannelsConfigSchema = Type.Object(
  {
    defaults: Type.Optional(ChannelDefaultsSchema),
    modelByChannel: Type.Optional(ModelByChannelSchema),
    whatsapp: Type.Optional(WhatsAppChannelConfigSchema),
    telegram: Type.Optional(TelegramChannelConfigSchema),
    discord: Type.Optional(DiscordChannelConfigSchema),
    slack: Type.Optional(SlackChannelConfigSchema),
    signal: Type.Optional(SignalChannelConfigSchema),
    bluebubbles: Type.Optional(BlueBubblesChannelConfigSchema),
    imessage: Type.Optional(IMessageChannelConfigSchema),
    webchat: compatOptional(
      ChannelConfigSchema,
      "no adapter: WebChat is served by the gateway (gateway.controlUi)",
    ),
    matrix: compatOptional(ChannelConfigSchema, "no issue yet (Matrix): no adapter"),
    msteams: compatOptional(ChannelConfigSchema, "no issue yet (MS Teams): no adapter"),
    googlechat: compatOptional(ChannelConfigSchema, "no issue yet (Google Chat): no adapter"),
    irc: compatOptional(ChannelConfigSchema, "no issue yet (IRC): no adapter"),
  },
  {
    // Any other channel id: Pincer has no adapter for it (telegram, whatsapp and discord are built in).
    additionalProperties: acceptedForCompat(ChannelConfigSchema, "no adapter for this channel"),
    description: "Channel configurations by name.",
  },
);
/** Static type of {@link ChannelsConfigSchema}. */
export type ChannelsConfig = Static<typeof ChannelsConfigSchema>;
