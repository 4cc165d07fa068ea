// Sub-objects shared by `agents.defaults` and agent entries: identity, sandbox, heartbeat, ...
import { type Static, Type } from "typebox";
import { acceptedForCompat, ModelRefObjectSchema } from "./common.js";

/** How the agent presents itself (name, emoji, avatar, theme). */
export const AgentIdentitySchema = Type.Object(
  {
    name: Type.Optional(Type.String({ description: "Display name." })),
    emoji: Type.Optional(Type.String({ description: "Emoji (also the default ack reaction)." })),
    avatar: Type.Optional(
      Type.String({ description: "Avatar: workspace-relative path, http(s) URL or data URI." }),
    ),
    theme: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "Persona theme / vibe." }),
        "no issue yet: persona theme",
      ),
    ),
  },
  { additionalProperties: false, description: "Agent identity." },
);
/** Static type of {@link AgentIdentitySchema}. */
export type AgentIdentity = Static<typeof AgentIdentitySchema>;

/** Group-chat behaviour: mention patterns and history window. */
export const GroupChatSchema = Type.Object(
  {
    mentionPatterns: Type.Optional(
      Type.Array(Type.String(), { description: "Regex patterns that count as a mention." }),
    ),
    historyLimit: Type.Optional(
      Type.Integer({ minimum: 0, description: "Group messages kept as context." }),
    ),
  },
  { additionalProperties: true, description: "Group chat settings." },
);
/** Static type of {@link GroupChatSchema}. */
export type GroupChat = Static<typeof GroupChatSchema>;

/** An agent entry's `groupChat`: its mention patterns count; a per-agent history limit is not read. */
export const AgentGroupChatSchema = Type.Object(
  {
    mentionPatterns: Type.Optional(
      Type.Array(Type.String(), { description: "Regex patterns that count as a mention." }),
    ),
    historyLimit: Type.Optional(
      acceptedForCompat(
        Type.Integer({ minimum: 0, description: "Group messages kept as context." }),
        "no issue yet: per-agent group history (the group's, channel's or messages.groupChat limit applies)",
      ),
    ),
  },
  { additionalProperties: true, description: "Group chat settings of one agent." },
);

/** Docker settings of the sandbox container (bwrap honours the subset its README section names). */
export const SandboxDockerSchema = Type.Object(
  {
    image: Type.Optional(Type.String({ description: "Container image." })),
    containerPrefix: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "Container name prefix." }),
        "issue 18 (sandboxing): container names are Pincer's own",
      ),
    ),
    workdir: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "Working directory in the container." }),
        "issue 18 (sandboxing): the workspace is always /workspace",
      ),
    ),
    setupCommand: Type.Optional(
      Type.String({ description: "Command run once after the container is created." }),
    ),
    network: Type.Optional(Type.String({ description: "Docker network (e.g. none, bridge)." })),
    user: Type.Optional(Type.String({ description: "Container user." })),
    readOnlyRoot: Type.Optional(Type.Boolean({ description: "Read-only root filesystem." })),
    env: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: "Container environment." }),
    ),
    binds: Type.Optional(Type.Array(Type.String(), { description: "Extra bind mounts." })),
    memory: Type.Optional(
      Type.Union([Type.String(), Type.Number()], { description: "Memory limit." }),
    ),
    cpus: Type.Optional(Type.Number({ minimum: 0, description: "CPU limit." })),
    pidsLimit: Type.Optional(Type.Integer({ minimum: 1, description: "Max processes." })),
    capDrop: Type.Optional(
      Type.Array(Type.String(), { description: 'Capabilities dropped (default ["ALL"]).' }),
    ),
  },
  { additionalProperties: true, description: "Docker sandbox settings." },
);
/** Static type of {@link SandboxDockerSchema}. */
export type SandboxDocker = Static<typeof SandboxDockerSchema>;

/** When idle sandboxes are removed (OpenClaw's defaults: idle 24 h, age 7 days; 0 turns a rule off). */
export const SandboxPruneSchema = Type.Object(
  {
    idleHours: Type.Optional(
      Type.Number({ minimum: 0, description: "Remove a sandbox unused this many hours." }),
    ),
    maxAgeDays: Type.Optional(
      Type.Number({ minimum: 0, description: "Remove a sandbox older than this many days." }),
    ),
  },
  { additionalProperties: true, description: "Sandbox auto-prune settings." },
);

/** Tool sandboxing: when to sandbox, container scope and workspace access. */
export const SandboxConfigSchema = Type.Object(
  {
    mode: Type.Optional(
      Type.Union([Type.Literal("off"), Type.Literal("non-main"), Type.Literal("all")], {
        description: "Sandbox mode: off, non-main (all but the main session) or all.",
      }),
    ),
    scope: Type.Optional(
      Type.Union([Type.Literal("session"), Type.Literal("agent"), Type.Literal("shared")], {
        description: "Container scope: one per session, per agent, or shared.",
      }),
    ),
    workspaceAccess: Type.Optional(
      Type.Union([Type.Literal("none"), Type.Literal("ro"), Type.Literal("rw")], {
        description: "Agent workspace access inside the sandbox.",
      }),
    ),
    workspaceRoot: Type.Optional(Type.String({ description: "Root of sandbox workspaces." })),
    perSession: Type.Optional(Type.Boolean({ description: "Legacy alias of scope." })),
    sessionToolsVisibility: Type.Optional(
      acceptedForCompat(
        Type.Union([Type.Literal("spawned"), Type.Literal("all")], {
          description: "Sessions that session tools may target when sandboxed.",
        }),
        "issue 18 (sandboxing)",
      ),
    ),
    backend: Type.Optional(
      Type.Union([Type.Literal("docker"), Type.Literal("bwrap")], {
        description: "Pincer: sandbox backend, Docker (default) or bubblewrap.",
      }),
    ),
    docker: Type.Optional(SandboxDockerSchema),
    browser: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Sandboxed browser settings." }),
        "issue 18 (sandboxing)",
      ),
    ),
    prune: Type.Optional(SandboxPruneSchema),
  },
  { additionalProperties: true, description: "Sandbox settings." },
);
/** Static type of {@link SandboxConfigSchema}. */
export type SandboxConfig = Static<typeof SandboxConfigSchema>;

/** Sub-agent spawning (`sessions_spawn`) settings. */
export const SubagentsConfigSchema = Type.Object(
  {
    allowAgents: Type.Optional(
      Type.Array(Type.String(), { description: 'Agent ids this agent may spawn ("*" = any).' }),
    ),
    model: Type.Optional(
      acceptedForCompat(
        Type.Union([Type.String(), ModelRefObjectSchema], {
          description: "Model for spawned sub-agents.",
        }),
        "no issue yet: sub-agent model (sessions_spawn runs the target agent's model)",
      ),
    ),
    maxConcurrent: Type.Optional(
      acceptedForCompat(
        Type.Integer({ minimum: 1, description: "Max concurrent sub-agent runs." }),
        "no issue yet: sub-agent limits",
      ),
    ),
    maxSpawnDepth: Type.Optional(
      acceptedForCompat(
        Type.Integer({ minimum: 1, description: "Max spawn depth." }),
        "no issue yet: sub-agent limits",
      ),
    ),
    maxChildrenPerAgent: Type.Optional(
      acceptedForCompat(
        Type.Integer({ minimum: 1, description: "Max active children per requester." }),
        "no issue yet: sub-agent limits",
      ),
    ),
    archiveAfterMinutes: Type.Optional(
      acceptedForCompat(
        Type.Number({ minimum: 0, description: "Archive sub-agent sessions after N minutes." }),
        "no issue yet: sub-agent limits",
      ),
    ),
    thinking: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "Default thinking level." }),
        "no issue yet: sub-agent thinking level",
      ),
    ),
    runTimeoutSeconds: Type.Optional(
      acceptedForCompat(
        Type.Number({ minimum: 0, description: "Run timeout (s, 0 = none)." }),
        "no issue yet: sub-agent limits",
      ),
    ),
  },
  { additionalProperties: true, description: "Sub-agent settings." },
);
/** Static type of {@link SubagentsConfigSchema}. */
export type SubagentsConfig = Static<typeof SubagentsConfigSchema>;

/** Periodic background heartbeat runs. */
export const HeartbeatConfigSchema = Type.Object(
  {
    every: Type.Optional(
      Type.String({ description: 'Interval (duration, default unit minutes; e.g. "30m").' }),
    ),
    activeHours: Type.Optional(
      Type.Object(
        {
          start: Type.Optional(Type.String({ description: "Start time HH:MM (inclusive)." })),
          end: Type.Optional(Type.String({ description: "End time HH:MM (exclusive)." })),
          timezone: Type.Optional(Type.String({ description: "user, local or IANA zone." })),
        },
        { additionalProperties: false, description: "Window in which heartbeats run." },
      ),
    ),
    model: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "Heartbeat model override." }),
        "no issue yet: heartbeat model (heartbeats run the agent's model)",
      ),
    ),
    session: Type.Optional(Type.String({ description: "Session key for heartbeat runs." })),
    target: Type.Optional(Type.String({ description: "Delivery target: last, none or channel." })),
    to: Type.Optional(Type.String({ description: "Explicit delivery recipient." })),
    accountId: Type.Optional(Type.String({ description: "Delivery account id." })),
    prompt: Type.Optional(Type.String({ description: "Heartbeat prompt override." })),
    ackMaxChars: Type.Optional(
      Type.Integer({ minimum: 0, description: "Chars allowed after HEARTBEAT_OK." }),
    ),
    lightContext: Type.Optional(
      acceptedForCompat(
        Type.Boolean({ description: "Only inject HEARTBEAT.md." }),
        "no issue yet: heartbeat context",
      ),
    ),
    isolatedSession: Type.Optional(
      acceptedForCompat(
        Type.Boolean({ description: "Run without history." }),
        "no issue yet: heartbeat context",
      ),
    ),
  },
  { additionalProperties: true, description: "Heartbeat settings." },
);
/** Static type of {@link HeartbeatConfigSchema}. */
export type HeartbeatConfig = Static<typeof HeartbeatConfigSchema>;

/** One entry of the model catalog / alias map (`agents.defaults.models`). */
export const ModelAliasEntrySchema = Type.Object(
  {
    alias: Type.Optional(Type.String({ description: "Short alias usable in /model." })),
    params: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: "Provider params (temperature, maxTokens, cacheRetention, ...).",
      }),
    ),
    // Responses always stream: only `false` (turn streaming off) is accepted and ignored.
    streaming: Type.Optional(
      Type.Union(
        [
          Type.Literal(true),
          acceptedForCompat(Type.Literal(false), "no issue yet: responses always stream"),
        ],
        { description: "Stream responses for this model." },
      ),
    ),
  },
  { additionalProperties: true, description: "Model catalog entry." },
);
/** Static type of {@link ModelAliasEntrySchema}. */
export type ModelAliasEntry = Static<typeof ModelAliasEntrySchema>;

/** Model catalog keyed by full `provider/model` ref. */
export const ModelAliasMapSchema = Type.Record(Type.String(), ModelAliasEntrySchema, {
  description: 'Model catalog keyed by "provider/model" ({ alias?, params? }).',
});
/** Static type of {@link ModelAliasMapSchema}. */
export type ModelAliasMap = Static<typeof ModelAliasMapSchema>;

/** Which model refs an agent may use: `allow`/`forbid` lists of refs or `provider/*`, and what a mismatch does. */
export const ModelPolicySchema = Type.Object(
  {
    allow: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: 'Allowed model refs or "provider/*" patterns (empty or absent: any model).',
      }),
    ),
    forbid: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: 'Forbidden model refs or "provider/*" patterns (forbid wins over allow).',
      }),
    ),
    onMismatch: Type.Union([Type.Literal("fail"), Type.Literal("warn")], {
      description: "fail: refuse the model (config error, run ends); warn: report and go on.",
    }),
  },
  {
    additionalProperties: false,
    description: "Model policy (a per-agent policy replaces agents.defaults.modelPolicy).",
  },
);
/** Static type of {@link ModelPolicySchema}. */
export type ModelPolicy = Static<typeof ModelPolicySchema>;

/** Thinking level used when no `/think` directive is present. */
export const ThinkingLevelSchema = Type.Union(
  [
    Type.Literal("off"),
    Type.Literal("minimal"),
    Type.Literal("low"),
    Type.Literal("medium"),
    Type.Literal("high"),
    Type.Literal("xhigh"),
    Type.Literal("adaptive"),
  ],
  {
    description:
      "Thinking level of runs whose session sets none (/think overrides it; adaptive: the model decides).",
  },
);
/** Static type of {@link ThinkingLevelSchema}. */
export type ThinkingLevel = Static<typeof ThinkingLevelSchema>;

/** Session compaction tuning. */
export const CompactionConfigSchema = Type.Object(
  {
    mode: Type.Optional(
      acceptedForCompat(
        Type.Union([Type.Literal("default"), Type.Literal("safeguard")], {
          description: "Compaction mode.",
        }),
        "no issue yet: safeguard compaction",
      ),
    ),
    reserveTokens: Type.Optional(Type.Integer({ minimum: 0, description: "Reserve tokens." })),
    keepRecentTokens: Type.Optional(
      Type.Integer({ minimum: 0, description: "Recent tokens kept verbatim." }),
    ),
    model: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "Model used for summaries." }),
        "no issue yet: compaction model",
      ),
    ),
    memoryFlush: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Pre-compaction memory flush." }),
        "issue 19 (memory)",
      ),
    ),
  },
  { additionalProperties: true, description: "Compaction settings." },
);
/** Static type of {@link CompactionConfigSchema}. */
export type CompactionConfig = Static<typeof CompactionConfigSchema>;

/** Pruning of old tool results from the prompt (transcript untouched). */
export const ContextPruningConfigSchema = Type.Object(
  {
    mode: Type.Optional(
      Type.Union([Type.Literal("off"), Type.Literal("cache-ttl")], {
        description: "Pruning mode.",
      }),
    ),
    ttl: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "Cache TTL (duration)." }),
        "no issue yet: cache-ttl pruning",
      ),
    ),
    keepLastAssistants: Type.Optional(
      Type.Integer({ minimum: 0, description: "Assistant turns never pruned." }),
    ),
  },
  { additionalProperties: true, description: "Context pruning settings." },
);
/** Static type of {@link ContextPruningConfigSchema}. */
export type ContextPruningConfig = Static<typeof ContextPruningConfigSchema>;

/** Soft chunking of streamed block replies. */
export const BlockStreamingChunkSchema = Type.Object(
  {
    minChars: Type.Optional(Type.Integer({ minimum: 0, description: "Min chunk size." })),
    maxChars: Type.Optional(Type.Integer({ minimum: 1, description: "Max chunk size." })),
    breakPreference: Type.Optional(
      Type.Union([Type.Literal("paragraph"), Type.Literal("newline"), Type.Literal("sentence")], {
        description: "Preferred break point.",
      }),
    ),
  },
  { additionalProperties: false, description: "Block streaming chunking." },
);
/** Static type of {@link BlockStreamingChunkSchema}. */
export type BlockStreamingChunk = Static<typeof BlockStreamingChunkSchema>;

/** Coalescing of streamed block replies before sending. */
export const BlockStreamingCoalesceSchema = Type.Object(
  {
    minChars: Type.Optional(Type.Integer({ minimum: 0, description: "Min merged size." })),
    maxChars: Type.Optional(Type.Integer({ minimum: 1, description: "Max merged size." })),
    idleMs: Type.Optional(Type.Integer({ minimum: 0, description: "Idle flush delay (ms)." })),
  },
  { additionalProperties: false, description: "Block streaming coalescing." },
);
/** Static type of {@link BlockStreamingCoalesceSchema}. */
export type BlockStreamingCoalesce = Static<typeof BlockStreamingCoalesceSchema>;

/** Human-like delay between block replies. */
export const HumanDelaySchema = Type.Object(
  {
    mode: Type.Optional(
      Type.Union([Type.Literal("off"), Type.Literal("natural"), Type.Literal("custom")], {
        description: "Delay style.",
      }),
    ),
    minMs: Type.Optional(Type.Integer({ minimum: 0, description: "Min delay (ms)." })),
    maxMs: Type.Optional(Type.Integer({ minimum: 0, description: "Max delay (ms)." })),
  },
  { additionalProperties: false, description: "Human-like reply delay." },
);
/** Static type of {@link HumanDelaySchema}. */
export type HumanDelay = Static<typeof HumanDelaySchema>;
