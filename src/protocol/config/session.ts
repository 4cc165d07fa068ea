// `session`: session scoping, keys, store location, resets and maintenance.
import { type Static, Type } from "typebox";
import { acceptedForCompat, TypingModeSchema } from "./common.js";

/** `session.scope`: one session per sender, or one global session. */
export const SessionScopeSchema = Type.Union(
  [
    Type.Literal("per-sender"),
    // A value-level mark: only `"global"` is ignored (every sender still gets its own session).
    acceptedForCompat(Type.Literal("global"), "no issue yet: one global session"),
  ],
  { description: "Session scope: per-sender (default) or global." },
);
/** Static type of {@link SessionScopeSchema}. */
export type SessionScope = Static<typeof SessionScopeSchema>;

/** How direct messages map to sessions. */
export const DmScopeSchema = Type.Union(
  [
    Type.Literal("main"),
    Type.Literal("per-peer"),
    Type.Literal("per-channel-peer"),
    Type.Literal("per-account-channel-peer"),
  ],
  { description: "DM session scope: main, per-peer, per-channel-peer, per-account-channel-peer." },
);
/** Static type of {@link DmScopeSchema}. */
export type DmScope = Static<typeof DmScopeSchema>;

/** How group/channel messages map to sessions. */
export const GroupScopeSchema = Type.Union([Type.Literal("per-group"), Type.Literal("main")], {
  description: "Group session scope: per-group (default) or main.",
});
/** Static type of {@link GroupScopeSchema}. */
export type GroupScope = Static<typeof GroupScopeSchema>;

/** A session reset policy (daily boundary and/or idle window). */
export const SessionResetSchema = Type.Object(
  {
    mode: Type.Optional(
      Type.Union([Type.Literal("none"), Type.Literal("daily"), Type.Literal("idle")], {
        description: "Reset mode: none (default), daily or idle.",
      }),
    ),
    atHour: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 23, description: "Local hour of the daily reset." }),
    ),
    idleMinutes: Type.Optional(
      Type.Integer({ minimum: 1, description: "Idle minutes before a reset." }),
    ),
  },
  { additionalProperties: false, description: "Session reset policy." },
);
/** Static type of {@link SessionResetSchema}. */
export type SessionReset = Static<typeof SessionResetSchema>;

/** Reset overrides per chat type. */
export const SessionResetByTypeSchema = Type.Object(
  {
    direct: Type.Optional(SessionResetSchema),
    dm: Type.Optional(SessionResetSchema),
    group: Type.Optional(SessionResetSchema),
    thread: Type.Optional(SessionResetSchema),
  },
  {
    additionalProperties: false,
    description: "Reset overrides for direct/group/thread (dm: legacy).",
  },
);
/** Static type of {@link SessionResetByTypeSchema}. */
export type SessionResetByType = Static<typeof SessionResetByTypeSchema>;

/** One rule of `session.sendPolicy`. */
export const SendPolicyRuleSchema = Type.Object(
  {
    action: Type.Union([Type.Literal("allow"), Type.Literal("deny")], {
      description: "allow or deny.",
    }),
    match: Type.Optional(
      Type.Object(
        {
          channel: Type.Optional(Type.String({ description: "Channel id." })),
          chatType: Type.Optional(
            Type.Union([Type.Literal("direct"), Type.Literal("group"), Type.Literal("channel")], {
              description: "Chat type.",
            }),
          ),
          keyPrefix: Type.Optional(Type.String({ description: "Session key prefix." })),
          rawKeyPrefix: Type.Optional(Type.String({ description: "Raw session key prefix." })),
        },
        { additionalProperties: false, description: "What the rule matches." },
      ),
    ),
  },
  { additionalProperties: false, description: "Send policy rule." },
);
/** Static type of {@link SendPolicyRuleSchema}. */
export type SendPolicyRule = Static<typeof SendPolicyRuleSchema>;

/** Which sessions may send outbound messages. */
export const SendPolicySchema = Type.Object(
  {
    default: Type.Optional(
      Type.Union([Type.Literal("allow"), Type.Literal("deny")], { description: "Default action." }),
    ),
    rules: Type.Optional(Type.Array(SendPolicyRuleSchema, { description: "Ordered rules." })),
  },
  { additionalProperties: false, description: "Outbound send policy." },
);
/** Static type of {@link SendPolicySchema}. */
export type SendPolicy = Static<typeof SendPolicySchema>;

/** Automatic session store maintenance (pruning, capping, rotation). */
export const SessionMaintenanceSchema = Type.Object(
  {
    mode: Type.Optional(
      Type.Union([Type.Literal("enforce"), Type.Literal("warn")], {
        description: "enforce cleanup or only warn.",
      }),
    ),
    pruneAfter: Type.Optional(
      Type.Union([Type.String(), Type.Number()], { description: 'Prune age, e.g. "30d".' }),
    ),
    pruneDays: Type.Optional(Type.Integer({ minimum: 1, description: "Legacy prune age (days)." })),
    maxEntries: Type.Optional(Type.Integer({ minimum: 1, description: "Max session entries." })),
    rotateBytes: Type.Optional(
      acceptedForCompat(
        Type.Union([Type.String(), Type.Number()], {
          description: "Rotate the store at this size.",
        }),
        "no issue yet: store rotation",
      ),
    ),
    resetArchiveRetention: Type.Optional(
      Type.Union([Type.String(), Type.Number(), Type.Literal(false)], {
        description: "Retention of reset archives (false disables cleanup).",
      }),
    ),
    maxDiskBytes: Type.Optional(
      acceptedForCompat(
        Type.Union([Type.String(), Type.Number()], { description: "Sessions disk budget." }),
        "no issue yet: disk budget",
      ),
    ),
    highWaterBytes: Type.Optional(
      acceptedForCompat(
        Type.Union([Type.String(), Type.Number()], {
          description: "Target size after disk cleanup.",
        }),
        "no issue yet: disk budget",
      ),
    ),
    archiveDashboardAfter: Type.Optional(
      acceptedForCompat(
        Type.Union([Type.String(), Type.Number()], { description: "Archive dashboard sessions." }),
        "no issue yet",
      ),
    ),
    preserveRecent: Type.Optional(
      acceptedForCompat(
        Type.Boolean({ description: "Protect recently active sessions from cleanup." }),
        "no issue yet",
      ),
    ),
  },
  { additionalProperties: true, description: "Session store maintenance." },
);
/** Static type of {@link SessionMaintenanceSchema}. */
export type SessionMaintenance = Static<typeof SessionMaintenanceSchema>;

/** `session`: scoping, identity links, store path template, resets and maintenance. */
export const SessionConfigSchema = Type.Object(
  {
    scope: Type.Optional(SessionScopeSchema),
    dmScope: Type.Optional(DmScopeSchema),
    groupScope: Type.Optional(GroupScopeSchema),
    mainKey: Type.Optional(
      Type.String({ minLength: 1, description: 'Main session key (default "main").' }),
    ),
    identityLinks: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String()), {
        description: "Canonical identity -> linked peer ids (e.g. telegram:123).",
      }),
    ),
    store: Type.Optional(
      Type.String({ description: "Session store path template (supports {agentId})." }),
    ),
    reset: Type.Optional(SessionResetSchema),
    resetByType: Type.Optional(SessionResetByTypeSchema),
    resetByChannel: Type.Optional(
      Type.Record(Type.String(), SessionResetSchema, {
        description: "Reset overrides per channel (replace reset and resetByType).",
      }),
    ),
    resetTriggers: Type.Optional(
      Type.Array(Type.String(), {
        description: "Messages that start a new session (default /new, /reset).",
      }),
    ),
    idleMinutes: Type.Optional(
      Type.Integer({ minimum: 1, description: "Legacy idle reset (minutes)." }),
    ),
    sendPolicy: Type.Optional(acceptedForCompat(SendPolicySchema, "no issue yet: send policy")),
    threadBindings: Type.Optional(
      acceptedForCompat(
        Type.Object(
          {
            enabled: Type.Optional(Type.Boolean({ description: "Enable thread-bound sessions." })),
            idleHours: Type.Optional(Type.Number({ minimum: 0, description: "Idle unfocus (h)." })),
            maxAgeHours: Type.Optional(Type.Number({ minimum: 0, description: "Max age (h)." })),
          },
          { additionalProperties: true, description: "Thread-bound session routing." },
        ),
        "no issue yet: thread-bound sessions",
      ),
    ),
    maintenance: Type.Optional(SessionMaintenanceSchema),
    agentToAgent: Type.Optional(
      acceptedForCompat(
        Type.Object(
          {
            maxPingPongTurns: Type.Optional(
              Type.Integer({ minimum: 0, maximum: 5, description: "Max ping-pong turns." }),
            ),
          },
          { additionalProperties: false, description: "Agent-to-agent session limits." },
        ),
        "no issue yet: agent-to-agent sessions",
      ),
    ),
    typingMode: Type.Optional(TypingModeSchema),
    typingIntervalSeconds: Type.Optional(
      Type.Number({ minimum: 1, description: "Typing indicator refresh interval (s)." }),
    ),
    parentForkMaxTokens: Type.Optional(
      acceptedForCompat(
        Type.Integer({ minimum: 0, description: "Max parent tokens for thread forks." }),
        "no issue yet: thread forks",
      ),
    ),
    sharing: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Session sharing settings." }),
        "no issue yet: session sharing",
      ),
    ),
    notifyOnCreate: Type.Optional(
      acceptedForCompat(
        Type.Union([Type.Boolean(), Type.Record(Type.String(), Type.Unknown())], {
          description: "Notify when a session is created.",
        }),
        "no issue yet",
      ),
    ),
  },
  { additionalProperties: true, description: "Session scoping, store and reset settings." },
);
/** Static type of {@link SessionConfigSchema}. */
export type SessionConfig = Static<typeof SessionConfigSchema>;
