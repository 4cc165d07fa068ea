// `agents`: `defaults` plus the roster (`list[]`, or `entries` keyed by id).

import { type Static, Type } from "typebox";
import {
  AgentGroupChatSchema,
  AgentIdentitySchema,
  BlockStreamingChunkSchema,
  BlockStreamingCoalesceSchema,
  CompactionConfigSchema,
  ContextPruningConfigSchema,
  HeartbeatConfigSchema,
  HumanDelaySchema,
  ModelAliasMapSchema,
  ModelPolicySchema,
  SandboxConfigSchema,
  SubagentsConfigSchema,
  ThinkingLevelSchema,
} from "./agent-parts.js";
import { BudgetConfigSchema } from "./budget.js";
import {
  acceptedForCompat,
  compatOptional,
  ModelRefObjectSchema,
  ToolListPolicySchema,
  TypingModeSchema,
} from "./common.js";
import { MemorySearchConfigSchema } from "./memory-search.js";
import {
  AgentToolsConfigSchema,
  ElevatedConfigSchema,
  ExecToolConfigSchema,
  ToolsConfigSchema,
} from "./tools.js";

/** Keys accepted both in `agents.defaults` and in each agent entry. */
const sharedAgentProps = {
  workspace: Type.Optional(
    Type.String({ description: "Workspace directory (agent cwd and bootstrap files; ~ allowed)." }),
  ),
  model: Type.Optional(
    Type.Union([Type.String({ minLength: 1 }), ModelRefObjectSchema], {
      description: 'Model: "provider/model" or { primary, fallbacks }.',
    }),
  ),
  params: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: "Model params merged over agents.defaults.models (temperature, ...).",
    }),
  ),
  modelPolicy: Type.Optional(ModelPolicySchema),
  sandbox: Type.Optional(SandboxConfigSchema),
  subagents: Type.Optional(SubagentsConfigSchema),
  heartbeat: Type.Optional(HeartbeatConfigSchema),
  budget: Type.Optional(BudgetConfigSchema),
  humanDelay: Type.Optional(
    acceptedForCompat(HumanDelaySchema, "no issue yet: human-like reply delay"),
  ),
  skipBootstrap: Type.Optional(
    Type.Boolean({ description: "Do not create bootstrap files (pre-seeded workspaces)." }),
  ),
  bootstrapMaxChars: Type.Optional(
    Type.Integer({ description: "Per-file bootstrap injection cap (default 20000)." }),
  ),
  bootstrapTotalMaxChars: Type.Optional(
    Type.Integer({ description: "Total bootstrap injection cap (default 150000)." }),
  ),
  timeFormat: Type.Optional(
    Type.Union([Type.Literal("auto"), Type.Literal("12"), Type.Literal("24")], {
      description: "Time format in the prompt: auto, 12 or 24.",
    }),
  ),
  timeoutSeconds: Type.Optional(
    Type.Number({ minimum: 0, description: "Agent run timeout in seconds (0 = unlimited)." }),
  ),
  maxConcurrent: Type.Optional(
    Type.Integer({ minimum: 1, description: "Max concurrent agent runs." }),
  ),
  thinkingDefault: Type.Optional(ThinkingLevelSchema),
  contextTokens: compatOptional(
    Type.Integer({ minimum: 1, description: "Context window cap used for estimates." }),
    "no issue yet: context cap (the model's contextWindow is used)",
  ),
  memorySearch: Type.Optional(MemorySearchConfigSchema),
};

/** Keys of an agent entry (besides `id`). */
const agentEntryProps = {
  ...sharedAgentProps,
  tools: Type.Optional(AgentToolsConfigSchema),
  userTimezone: Type.Optional(Type.String({ description: "IANA timezone for the prompt." })),
  typingMode: Type.Optional(TypingModeSchema),
  typingIntervalSeconds: Type.Optional(
    Type.Number({ minimum: 1, description: "Typing indicator refresh (s)." }),
  ),
  default: Type.Optional(
    Type.Boolean({ description: "Marks the default agent (first with true wins)." }),
  ),
  name: Type.Optional(Type.String({ description: "Display name." })),
  description: Type.Optional(Type.String({ description: "What this agent is for." })),
  cwd: compatOptional(
    Type.String({ description: "Working directory override for tools." }),
    "no issue yet: tools run in the agent's workspace",
  ),
  agentDir: Type.Optional(
    Type.String({ description: "Agent state dir (auth profiles, model registry); never shared." }),
  ),
  models: Type.Optional(
    Type.Union(
      [
        ModelAliasMapSchema,
        acceptedForCompat(
          Type.Array(Type.String()),
          "no issue yet: a per-agent allowlist of model refs (use modelPolicy.allow)",
        ),
      ],
      {
        description: "Per-agent model catalog (alias map) or allowlist of model refs.",
      },
    ),
  ),
  identity: Type.Optional(AgentIdentitySchema),
  groupChat: Type.Optional(AgentGroupChatSchema),
  skills: Type.Optional(
    Type.Array(Type.String(), { description: "Skill allowlist for this agent." }),
  ),
  runtime: Type.Optional(
    acceptedForCompat(
      Type.Record(Type.String(), Type.Unknown(), { description: "Agent runtime settings." }),
      "no issue yet: agent runtimes",
    ),
  ),
  memory: Type.Optional(
    acceptedForCompat(
      Type.Record(Type.String(), Type.Unknown(), { description: "Agent memory settings." }),
      "issue 19 (memory)",
    ),
  ),
};

/** One `agents.list[]` entry: an isolated agent with its own workspace, agentDir and sessions. */
export const AgentEntrySchema = Type.Object(
  {
    id: Type.String({ minLength: 1, description: "Stable agent id (normalized to lowercase)." }),
    ...agentEntryProps,
  },
  { additionalProperties: true, description: "Agent definition." },
);
/** Static type of {@link AgentEntrySchema}. */
export type AgentEntry = Static<typeof AgentEntrySchema>;

/** One `agents.entries.<id>` value: same shape as a list entry, `id` defaults to the key. */
export const AgentEntryByIdSchema = Type.Object(
  {
    id: Type.Optional(
      Type.String({ minLength: 1, description: "Agent id (defaults to the key)." }),
    ),
    ...agentEntryProps,
  },
  { additionalProperties: true, description: "Agent definition keyed by id." },
);
/** Static type of {@link AgentEntryByIdSchema}. */
export type AgentEntryById = Static<typeof AgentEntryByIdSchema>;

/** Keys of `agents.defaults` (and of the legacy top-level `agent`). */
const agentDefaultsProps = {
  ...sharedAgentProps,
  userTimezone: Type.Optional(Type.String({ description: "IANA timezone for the prompt." })),
  models: Type.Optional(ModelAliasMapSchema),
  imageModel: Type.Optional(
    acceptedForCompat(
      Type.Union([Type.String(), ModelRefObjectSchema], { description: "Image-capable model." }),
      "no issue yet: image model",
    ),
  ),
  pdfModel: Type.Optional(
    acceptedForCompat(
      Type.Union([Type.String(), ModelRefObjectSchema], { description: "PDF-capable model." }),
      "no issue yet: PDF model",
    ),
  ),
  repoRoot: Type.Optional(Type.String({ description: "Repo root shown in the runtime line." })),
  bootstrapPromptTruncationWarning: Type.Optional(
    acceptedForCompat(
      Type.Union([Type.Literal("off"), Type.Literal("once"), Type.Literal("always")], {
        description: "Warn the agent about truncated bootstrap files: off, once or always.",
      }),
      "no issue yet",
    ),
  ),
  envelopeTimezone: Type.Optional(
    acceptedForCompat(
      Type.String({ description: "utc, local, user or IANA zone." }),
      "no issue yet: message envelopes",
    ),
  ),
  envelopeTimestamp: Type.Optional(
    acceptedForCompat(
      Type.Union([Type.Literal("on"), Type.Literal("off")], {
        description: "Envelope timestamps.",
      }),
      "no issue yet: message envelopes",
    ),
  ),
  envelopeElapsed: Type.Optional(
    acceptedForCompat(
      Type.Union([Type.Literal("on"), Type.Literal("off")], { description: "Envelope elapsed." }),
      "no issue yet: message envelopes",
    ),
  ),
  compaction: Type.Optional(CompactionConfigSchema),
  contextPruning: Type.Optional(ContextPruningConfigSchema),
  verboseDefault: Type.Optional(
    Type.Union([Type.Literal("off"), Type.Literal("on"), Type.Literal("full")], {
      description:
        "Default verbose level of sessions that set none with /verbose: on sends each tool call to the chat before the reply, full also its result.",
    }),
  ),
  elevatedDefault: Type.Optional(
    Type.Union(
      [Type.Literal("off"), Type.Literal("on"), Type.Literal("ask"), Type.Literal("full")],
      {
        description:
          "Elevated level of sessions that set none with /elevated (needs tools.elevated.enabled).",
      },
    ),
  ),
  blockStreamingDefault: Type.Optional(
    acceptedForCompat(
      Type.Union([Type.Literal("off"), Type.Literal("on")], {
        description: "Block streaming default (off).",
      }),
      "no issue yet: block streaming",
    ),
  ),
  blockStreamingBreak: Type.Optional(
    acceptedForCompat(
      Type.Union([Type.Literal("text_end"), Type.Literal("message_end")], {
        description: "Block boundary: text_end or message_end.",
      }),
      "no issue yet: block streaming",
    ),
  ),
  blockStreamingChunk: Type.Optional(
    acceptedForCompat(BlockStreamingChunkSchema, "no issue yet: block streaming"),
  ),
  blockStreamingCoalesce: Type.Optional(
    acceptedForCompat(BlockStreamingCoalesceSchema, "no issue yet: block streaming"),
  ),
  mediaMaxMb: compatOptional(
    Type.Number({ minimum: 0, description: "Max inbound media (MB)." }),
    "no issue yet: the channel's mediaMaxMb applies",
  ),
  imageMaxDimensionPx: Type.Optional(
    acceptedForCompat(
      Type.Integer({ minimum: 1, description: "Max image side when sanitizing (px)." }),
      "no issue yet: image sanitizing",
    ),
  ),
  typingIntervalSeconds: Type.Optional(
    Type.Number({ minimum: 1, description: "Typing indicator refresh (s)." }),
  ),
  typingMode: Type.Optional(TypingModeSchema),
  additionalSystemPrompt: Type.Optional(
    acceptedForCompat(
      Type.String({ description: "Text appended to every agent's system prompt." }),
      "no issue yet",
    ),
  ),
  cliBackends: Type.Optional(
    acceptedForCompat(
      Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
        description: "CLI backends keyed by id.",
      }),
      "no issue yet: CLI backends",
    ),
  ),
  systemAgent: Type.Optional(
    acceptedForCompat(
      Type.Record(Type.String(), Type.Unknown(), { description: "System agent settings." }),
      "no issue yet: system agent",
    ),
  ),
};

/** `agents.defaults`: settings inherited by every agent. */
export const AgentDefaultsSchema = Type.Object(
  {
    ...agentDefaultsProps,
    // Every agent's tool policy and settings, between the top-level `tools` and its own entry's.
    tools: Type.Optional(AgentToolsConfigSchema),
  },
  {
    additionalProperties: true,
    description: "Defaults for every agent.",
  },
);
/** Static type of {@link AgentDefaultsSchema}. */
export type AgentDefaults = Static<typeof AgentDefaultsSchema>;

/** [legacy] Top-level `agent`: the single-agent form of `agents.defaults` (workspace, skipBootstrap...),
 *  with the keys OpenClaw's migration moves elsewhere (src/config/legacy-agent.ts): `tools`, `elevated`
 *  and `bash` go to the top-level `tools`, `modelFallbacks` to `model.fallbacks`. */
export const LegacyAgentConfigSchema = Type.Object(
  {
    ...agentDefaultsProps,
    tools: Type.Optional(ToolsConfigSchema),
    elevated: Type.Optional(ElevatedConfigSchema),
    bash: Type.Optional(ExecToolConfigSchema),
    modelFallbacks: Type.Optional(
      Type.Array(Type.String(), { description: "[legacy] Fallback model refs (model.fallbacks)." }),
    ),
    sandbox: Type.Optional(
      Type.Object(
        {
          ...SandboxConfigSchema.properties,
          tools: compatOptional(ToolListPolicySchema, "issue 18 (sandboxing)"),
        },
        { additionalProperties: true, description: "[legacy] Sandbox settings." },
      ),
    ),
    subagents: Type.Optional(
      Type.Object(
        {
          ...SubagentsConfigSchema.properties,
          tools: compatOptional(ToolListPolicySchema, "no issue yet: sub-agent tool policy"),
        },
        { additionalProperties: true, description: "[legacy] Sub-agent settings." },
      ),
    ),
  },
  {
    additionalProperties: true,
    description: "[legacy] Single-agent settings; alias of agents.defaults.",
  },
);
/** Static type of {@link LegacyAgentConfigSchema}. */
export type LegacyAgentConfig = Static<typeof LegacyAgentConfigSchema>;

/** `agents`: defaults and the roster. `entries` (keyed by id) is accepted as an alias of `list`. */
export const AgentsConfigSchema = Type.Object(
  {
    defaults: Type.Optional(AgentDefaultsSchema),
    list: Type.Optional(Type.Array(AgentEntrySchema, { description: "Agents, in order." })),
    entries: Type.Optional(
      Type.Record(Type.String(), AgentEntryByIdSchema, {
        description: "Agents keyed by id (alias of list).",
      }),
    ),
    ownership: Type.Optional(
      acceptedForCompat(
        Type.String({ description: 'Traffic ownership policy (e.g. "explicit").' }),
        "no issue yet: traffic ownership",
      ),
    ),
  },
  { additionalProperties: false, description: "Agent defaults and roster." },
);
/** Static type of {@link AgentsConfigSchema}. */
export type AgentsConfig = Static<typeof AgentsConfigSchema>;
