// `messages` (reply prefix, group chat, queue, inbound debounce), `commands` and `broadcast`.
import { type Static, Type } from "typebox";
import { GroupChatSchema } from "./agent-parts.js";
import { AllowFromByChannelSchema, acceptedForCompat, compatOptional } from "./common.js";

/** What happens to a message that arrives while a run is active. */
export const QueueModeSchema = Type.Union(
  [
    Type.Literal("steer"),
    Type.Literal("followup"),
    Type.Literal("collect"),
    Type.Literal("steer-backlog"),
    Type.Literal("steer+backlog"),
    Type.Literal("interrupt"),
    Type.Literal("queue"),
  ],
  { description: "Queue mode: steer, followup, collect, steer-backlog, interrupt or queue." },
);
/** Static type of {@link QueueModeSchema}. */
export type QueueMode = Static<typeof QueueModeSchema>;

/** Which queued messages are dropped when the cap is reached. */
export const QueueDropSchema = Type.Union(
  [Type.Literal("old"), Type.Literal("new"), Type.Literal("summarize")],
  { description: "Overflow policy: old, new or summarize." },
);
/** Static type of {@link QueueDropSchema}. */
export type QueueDrop = Static<typeof QueueDropSchema>;

/** `messages.queue`: mode, debounce, cap and drop policy (global and per channel). */
export const QueueConfigSchema = Type.Object(
  {
    mode: Type.Optional(QueueModeSchema),
    byChannel: Type.Optional(
      Type.Record(Type.String(), QueueModeSchema, { description: "Queue mode per channel." }),
    ),
    debounceMs: Type.Optional(
      Type.Integer({ minimum: 0, description: "Quiet window before draining (ms)." }),
    ),
    debounceMsByChannel: Type.Optional(
      Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
        description: "Debounce per channel (ms).",
      }),
    ),
    cap: Type.Optional(Type.Integer({ minimum: 1, description: "Max queued messages." })),
    drop: Type.Optional(QueueDropSchema),
  },
  { additionalProperties: false, description: "Inbound queue while a run is active." },
);
/** Static type of {@link QueueConfigSchema}. */
export type QueueConfig = Static<typeof QueueConfigSchema>;

/** `messages.inbound`: debounce of rapid inbound messages per sender. */
export const InboundDebounceSchema = Type.Object(
  {
    debounceMs: Type.Optional(Type.Integer({ minimum: 0, description: "Debounce (ms)." })),
    byChannel: Type.Optional(
      Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
        description: "Debounce per channel (ms).",
      }),
    ),
  },
  { additionalProperties: false, description: "Inbound debounce." },
);
/** Static type of {@link InboundDebounceSchema}. */
export type InboundDebounce = Static<typeof InboundDebounceSchema>;

/** `messages`: reply formatting, group chat, queueing and acknowledgement reactions. */
export const MessagesConfigSchema = Type.Object(
  {
    responsePrefix: Type.Optional(
      acceptedForCompat(
        Type.String({ description: 'Prefix for outbound replies ("auto" = [identity name]).' }),
        "no issue yet: reply prefix",
      ),
    ),
    messagePrefix: Type.Optional(
      acceptedForCompat(Type.String({ description: "Legacy inbound prefix." }), "no issue yet"),
    ),
    groupChat: Type.Optional(GroupChatSchema),
    queue: Type.Optional(QueueConfigSchema),
    inbound: Type.Optional(InboundDebounceSchema),
    ackReaction: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "Emoji used to acknowledge inbound messages (empty = off)." }),
        "no issue yet: ack reactions",
      ),
    ),
    ackReactionScope: Type.Optional(
      acceptedForCompat(
        Type.Union(
          [
            Type.Literal("group-mentions"),
            Type.Literal("group-all"),
            Type.Literal("direct"),
            Type.Literal("all"),
            Type.Literal("off"),
            Type.Literal("none"),
          ],
          { description: "When to send the ack reaction." },
        ),
        "no issue yet: ack reactions",
      ),
    ),
    removeAckAfterReply: Type.Optional(
      acceptedForCompat(
        Type.Boolean({ description: "Remove the ack reaction after replying." }),
        "no issue yet: ack reactions",
      ),
    ),
    statusReactions: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Lifecycle status reactions." }),
        "no issue yet: status reactions",
      ),
    ),
    suppressToolErrors: Type.Optional(
      acceptedForCompat(
        Type.Boolean({ description: "Hide tool-error warnings from users." }),
        "no issue yet",
      ),
    ),
    visibleReplies: Type.Optional(
      acceptedForCompat(
        Type.Union([Type.Boolean(), Type.String()], { description: "Reply visibility policy." }),
        "no issue yet",
      ),
    ),
    usageTemplate: Type.Optional(
      acceptedForCompat(Type.String({ description: "Usage footer template." }), "issue 20 (usage)"),
    ),
    responseUsage: Type.Optional(
      Type.Union(
        [
          Type.Boolean(),
          Type.Literal("off"),
          Type.Literal("on"),
          Type.Literal("tokens"),
          Type.Literal("full"),
        ],
        {
          description:
            "Default usage footer on replies of sessions that set none with /usage: off, tokens (also on / true: tokens in and out), full (also cache, model and cost).",
        },
      ),
    ),
    tts: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Text-to-speech for replies." }),
        "no issue yet: text-to-speech",
      ),
    ),
  },
  { additionalProperties: true, description: "Message handling settings." },
);
/** Static type of {@link MessagesConfigSchema}. */
export type MessagesConfig = Static<typeof MessagesConfigSchema>;

/** `commands`: which chat commands are enabled and who may use them. */
export const CommandsConfigSchema = Type.Object(
  {
    native: Type.Optional(
      Type.Union([Type.Boolean(), Type.Literal("auto")], {
        description: "Register the platform command menu (true, false or auto; default auto).",
      }),
    ),
    nativeSkills: compatOptional(
      Type.Union([Type.Boolean(), Type.Literal("auto")], {
        description: "Register native skill commands (true, false or auto).",
      }),
      "issue 14 (commands.nativeSkills: skills are not chat commands yet, so no menu entries)",
    ),
    text: Type.Optional(Type.Boolean({ description: "Parse /commands in text." })),
    bash: compatOptional(
      Type.Boolean({ description: "Allow ! / /bash (default false)." }),
      "issue 14 (commands.bash: /bash)",
    ),
    bashForegroundMs: compatOptional(
      Type.Integer({ minimum: 0, maximum: 30000, description: "Ms before bash backgrounds." }),
      "issue 14 (commands.bash: /bash)",
    ),
    config: compatOptional(
      Type.Boolean({ description: "Allow /config (default false)." }),
      "issue 14 (commands.config: /config)",
    ),
    debug: compatOptional(
      Type.Boolean({ description: "Allow /debug (default false)." }),
      "issue 14 (commands.debug: /debug)",
    ),
    restart: Type.Optional(
      Type.Boolean({ description: "Allow /restart of the gateway (default true)." }),
    ),
    mcp: compatOptional(
      Type.Boolean({ description: "Allow /mcp." }),
      "issue 14 (commands.mcp: /mcp)",
    ),
    plugins: compatOptional(
      Type.Boolean({ description: "Allow /plugins." }),
      "issue 14 (commands.plugins: /plugins)",
    ),
    useAccessGroups: Type.Optional(
      Type.Boolean({ description: "Enforce access groups for commands." }),
    ),
    ownerAllowFrom: Type.Optional(
      Type.Array(Type.Union([Type.String(), Type.Number()]), {
        description: "Owner ids for owner-only commands.",
      }),
    ),
    ownerDisplay: compatOptional(
      Type.Union([Type.Literal("raw"), Type.Literal("hash")], {
        description: "How owner ids appear in prompts.",
      }),
      "issue 14 (commands.ownerDisplay: owner ids in prompts)",
    ),
    ownerDisplaySecret: compatOptional(
      Type.String({ description: "Key for owner id hashes." }),
      "issue 14 (commands.ownerDisplay: owner ids in prompts)",
    ),
    allowFrom: Type.Optional(AllowFromByChannelSchema),
  },
  { additionalProperties: true, description: "Chat command settings." },
);
/** Static type of {@link CommandsConfigSchema}. */
export type CommandsConfig = Static<typeof CommandsConfigSchema>;

/** How the agents of a broadcast group are run. */
export const BroadcastStrategySchema = Type.Union(
  [Type.Literal("parallel"), Type.Literal("sequential")],
  { description: "Broadcast strategy: parallel (default) or sequential." },
);
/** Static type of {@link BroadcastStrategySchema}. */
export type BroadcastStrategy = Static<typeof BroadcastStrategySchema>;

/** Object form of a broadcast group. */
export const BroadcastGroupSchema = Type.Object(
  {
    agents: Type.Array(Type.String({ minLength: 1 }), {
      description: "Agent ids that all handle the peer (max 16).",
    }),
    mentionGating: Type.Optional(
      Type.Boolean({ description: "Respect mention gating (default true)." }),
    ),
    maxRounds: Type.Optional(
      acceptedForCompat(
        Type.Integer({ minimum: 1, maximum: 4, description: "Rounds (1-4, default 1)." }),
        "no issue yet: broadcast rounds",
      ),
    ),
    maxTurns: Type.Optional(
      acceptedForCompat(
        Type.Integer({ minimum: 1, maximum: 32, description: "Turns (1-32)." }),
        "no issue yet: broadcast rounds",
      ),
    ),
  },
  { additionalProperties: false, description: "Broadcast group." },
);
/** Static type of {@link BroadcastGroupSchema}. */
export type BroadcastGroup = Static<typeof BroadcastGroupSchema>;

/** One broadcast target: a list of agent ids or a broadcast group object. */
export const BroadcastTargetSchema = Type.Union(
  [Type.Array(Type.String({ minLength: 1 }), { description: "Agent ids." }), BroadcastGroupSchema],
  { description: "Agent ids, or { agents, mentionGating, maxRounds, maxTurns }." },
);
/** Static type of {@link BroadcastTargetSchema}. */
export type BroadcastTarget = Static<typeof BroadcastTargetSchema>;

/** `broadcast`: `strategy` plus peer keys (`"<channel>:<peerId>"` or a bare peer id). */
export const BroadcastConfigSchema = Type.Object(
  { strategy: Type.Optional(BroadcastStrategySchema) },
  {
    additionalProperties: BroadcastTargetSchema,
    description: "Broadcast groups keyed by peer; every other key maps a peer to agents.",
  },
);
/** Static type of {@link BroadcastConfigSchema}. */
export type BroadcastConfig = Static<typeof BroadcastConfigSchema>;
