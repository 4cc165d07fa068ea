// `channels`: one shared shape for every channel (whatsapp, telegram, ... or any plugin channel).
import { type Static, Type } from "typebox";
import { BlockStreamingCoalesceSchema } from "./agent-parts.js";
import { AllowFromListSchema, SecretRefSchema, ToolListPolicySchema } from "./common.js";
import { ToolsBySenderSchema } from "./tools.js";

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
    tools: Type.Optional(ToolListPolicySchema),
    toolsBySender: Type.Optional(ToolsBySenderSchema),
    skills: Type.Optional(Type.Array(Type.String(), { description: "Skill allowlist." })),
    systemPrompt: Type.Optional(Type.String({ description: "Extra system prompt for the group." })),
    historyLimit: Type.Optional(Type.Integer({ minimum: 0, description: "Context messages." })),
    mentionPatterns: Type.Optional(
      Type.Array(Type.String(), { description: "Extra mention regexes." }),
    ),
    users: Type.Optional(AllowFromListSchema),
    roles: Type.Optional(Type.Array(Type.String(), { description: "Allowed role ids." })),
    topics: Type.Optional(
      Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
        description: "Per-topic/thread overrides (Telegram forum topics).",
      }),
    ),
    channels: Type.Optional(
      Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
        description: "Per-channel overrides inside a guild/workspace.",
      }),
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
  contextVisibility: Type.Optional(ContextVisibilitySchema),
  groups: Type.Optional(groupMapSchema),
  guilds: Type.Optional(groupMapSchema),
  rooms: Type.Optional(groupMapSchema),
  channels: Type.Optional(groupMapSchema),
  requireMention: Type.Optional(
    Type.Boolean({ description: "Require a mention in groups by default." }),
  ),
  mentionPatterns: Type.Optional(
    Type.Union([Type.Array(Type.String()), Type.Record(Type.String(), Type.Unknown())], {
      description: "Mention regexes (or a mention-pattern policy object).",
    }),
  ),
  historyLimit: Type.Optional(Type.Integer({ minimum: 0, description: "Group context messages." })),
  dmHistoryLimit: Type.Optional(Type.Integer({ minimum: 0, description: "DM context turns." })),
  dms: Type.Optional(
    Type.Record(
      Type.String(),
      Type.Object(
        { historyLimit: Type.Optional(Type.Integer({ minimum: 0, description: "DM turns." })) },
        { additionalProperties: true, description: "Per-DM settings." },
      ),
      { description: "Per-DM settings keyed by peer id." },
    ),
  ),
  textChunkLimit: Type.Optional(
    Type.Integer({ minimum: 1, description: "Max characters per outbound message." }),
  ),
  chunkMode: Type.Optional(
    Type.Union([Type.Literal("length"), Type.Literal("newline")], {
      description: "Outbound chunking: length or newline.",
    }),
  ),
  streaming: Type.Optional(
    Type.Union([Type.Boolean(), Type.String(), Type.Record(Type.String(), Type.Unknown())], {
      description: "Preview streaming: boolean, mode (off|partial|block|progress) or object.",
    }),
  ),
  blockStreaming: Type.Optional(
    Type.Boolean({ description: "Send block replies as they finish." }),
  ),
  blockStreamingCoalesce: Type.Optional(BlockStreamingCoalesceSchema),
  replyToMode: Type.Optional(
    Type.Union(
      [Type.Literal("off"), Type.Literal("first"), Type.Literal("all"), Type.Literal("batched")],
      {
        description: "Native reply threading.",
      },
    ),
  ),
  responsePrefix: Type.Optional(Type.String({ description: "Prefix for outbound replies." })),
  retry: Type.Optional(ChannelRetrySchema),
  mediaMaxMb: Type.Optional(Type.Number({ minimum: 0, description: "Max media size (MB)." })),
  mediaLocalRoots: Type.Optional(
    Type.Array(Type.String(), {
      description:
        "Extra directories reply media may attach local files from (besides the agent workspace; never the state dir).",
    }),
  ),
  defaultTo: Type.Optional(
    Type.Union([Type.String(), Type.Number()], { description: "Default delivery target." }),
  ),
  configWrites: Type.Optional(Type.Boolean({ description: "Allow config writes from chat." })),
  actions: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: "Channel action toggles." }),
  ),
  heartbeat: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: "Heartbeat visibility." }),
  ),
};

/** Credentials and connection settings (which ones apply depends on the channel). */
const channelCredentialProps = {
  botToken: Type.Optional(
    Type.Union([Type.String(), SecretRefSchema], {
      description: "Bot token (Telegram, Slack, ...).",
    }),
  ),
  tokenFile: Type.Optional(Type.String({ description: "File holding the bot token." })),
  token: Type.Optional(
    Type.Union([Type.String(), SecretRefSchema], { description: "Bot token (Discord, ...)." }),
  ),
  appToken: Type.Optional(
    Type.Union([Type.String(), SecretRefSchema], {
      description: "App-level token (Slack socket mode).",
    }),
  ),
  userToken: Type.Optional(
    Type.Union([Type.String(), SecretRefSchema], { description: "User token (Slack)." }),
  ),
  signingSecret: Type.Optional(
    Type.Union([Type.String(), SecretRefSchema], {
      description: "Request signing secret (Slack HTTP mode).",
    }),
  ),
  webhookSecret: Type.Optional(
    Type.Union([Type.String(), SecretRefSchema], { description: "Webhook secret." }),
  ),
  webhookUrl: Type.Optional(Type.String({ description: "Public webhook URL." })),
  webhookPath: Type.Optional(Type.String({ description: "Local webhook path." })),
  authDir: Type.Optional(Type.String({ description: "Auth state dir (WhatsApp)." })),
  accessToken: Type.Optional(
    Type.Union([Type.String(), SecretRefSchema], { description: "Access token (Matrix, ...)." }),
  ),
  password: Type.Optional(
    Type.Union([Type.String(), SecretRefSchema], { description: "Account password." }),
  ),
  apiKey: Type.Optional(Type.Union([Type.String(), SecretRefSchema], { description: "API key." })),
  homeserver: Type.Optional(Type.String({ description: "Matrix homeserver URL." })),
  userId: Type.Optional(Type.String({ description: "Bot user id." })),
  account: Type.Optional(Type.String({ description: "Signal account (E.164)." })),
  httpUrl: Type.Optional(Type.String({ description: "Daemon HTTP URL (signal-cli)." })),
  cliPath: Type.Optional(Type.String({ description: "Path to the channel CLI." })),
  dbPath: Type.Optional(Type.String({ description: "Path to the message database." })),
  appId: Type.Optional(Type.String({ description: "App id (MS Teams, ...)." })),
  appPassword: Type.Optional(
    Type.Union([Type.String(), SecretRefSchema], { description: "App password / client secret." }),
  ),
  tenantId: Type.Optional(Type.String({ description: "Tenant id." })),
  serviceAccountFile: Type.Optional(Type.String({ description: "Service account JSON file." })),
  proxy: Type.Optional(Type.String({ description: "HTTP proxy URL." })),
  mode: Type.Optional(Type.String({ description: "Connection mode (e.g. Slack socket|http)." })),
};

/** One account of a multi-account channel: the channel fields plus its own credentials. */
export const ChannelAccountSchema = Type.Object(
  { ...channelPolicyProps, ...channelCredentialProps },
  { additionalProperties: true, description: "Channel account settings." },
);
/** Static type of {@link ChannelAccountSchema}. */
export type ChannelAccount = Static<typeof ChannelAccountSchema>;

/** `channels.<name>`: access policy, groups, delivery, credentials and accounts. */
export const ChannelConfigSchema = Type.Object(
  {
    ...channelPolicyProps,
    ...channelCredentialProps,
    accounts: Type.Optional(
      Type.Record(Type.String(), ChannelAccountSchema, {
        description: "Accounts keyed by account id (overrides the channel fields).",
      }),
    ),
    defaultAccount: Type.Optional(Type.String({ description: "Account used when none is given." })),
  },
  { additionalProperties: true, description: "Channel settings." },
);
/** Static type of {@link ChannelConfigSchema}. */
export type ChannelConfig = Static<typeof ChannelConfigSchema>;

/** `channels.defaults`: defaults applied to every channel. */
export const ChannelDefaultsSchema = Type.Object(
  {
    groupPolicy: Type.Optional(GroupPolicySchema),
    contextVisibility: Type.Optional(ContextVisibilitySchema),
    heartbeat: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Heartbeat visibility." }),
    ),
    botLoopProtection: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Bot loop protection." }),
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
    whatsapp: Type.Optional(ChannelConfigSchema),
    telegram: Type.Optional(ChannelConfigSchema),
    discord: Type.Optional(ChannelConfigSchema),
    slack: Type.Optional(ChannelConfigSchema),
    signal: Type.Optional(ChannelConfigSchema),
    imessage: Type.Optional(ChannelConfigSchema),
    webchat: Type.Optional(ChannelConfigSchema),
    matrix: Type.Optional(ChannelConfigSchema),
    msteams: Type.Optional(ChannelConfigSchema),
    googlechat: Type.Optional(ChannelConfigSchema),
    irc: Type.Optional(ChannelConfigSchema),
  },
  { additionalProperties: ChannelConfigSchema, description: "Channel configurations by name." },
);
/** Static type of {@link ChannelsConfigSchema}. */
export type ChannelsConfig = Static<typeof ChannelsConfigSchema>;
