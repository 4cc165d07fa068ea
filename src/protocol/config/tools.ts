// `tools` (global tool policy) and the per-agent `agents.*.tools` override.
import { type Static, Type } from "typebox";
import {
  AllowFromByChannelSchema,
  acceptedForCompat,
  ModelRefObjectSchema,
  SecretRefSchema,
  ToolListPolicySchema,
} from "./common.js";

/** Base tool profile applied before allow/deny lists. */
export const ToolProfileSchema = Type.Union(
  [
    Type.Literal("minimal"),
    Type.Literal("coding"),
    Type.Literal("messaging"),
    Type.Literal("full"),
  ],
  { description: "Base tool profile: minimal, coding, messaging or full." },
);
/** Static type of {@link ToolProfileSchema}. */
export type ToolProfile = Static<typeof ToolProfileSchema>;

/** A tool policy with a profile (used by `byProvider`). */
export const ToolPolicySchema = Type.Object(
  {
    profile: Type.Optional(ToolProfileSchema),
    allow: Type.Optional(
      Type.Array(Type.String(), { description: "Tools or tool groups allowed." }),
    ),
    alsoAllow: Type.Optional(
      Type.Array(Type.String(), { description: "Extra tools merged into the allowlist." }),
    ),
    deny: Type.Optional(Type.Array(Type.String(), { description: "Tools denied (deny wins)." })),
  },
  { additionalProperties: false, description: "Tool policy: profile plus allow/deny lists." },
);
/** Static type of {@link ToolPolicySchema}. */
export type ToolPolicy = Static<typeof ToolPolicySchema>;

/** Elevated (host) exec gate: who may use `/elevated`. */
export const ElevatedConfigSchema = Type.Object(
  {
    enabled: Type.Optional(
      Type.Boolean({
        description: "Enable elevated mode (/elevated: a sandboxed session's exec on the host).",
      }),
    ),
    allowFrom: Type.Optional(AllowFromByChannelSchema),
  },
  { additionalProperties: false, description: "Elevated exec gate (per-channel sender lists)." },
);
/** Static type of {@link ElevatedConfigSchema}. */
export type ElevatedConfig = Static<typeof ElevatedConfigSchema>;

/** Agent-to-agent messaging tools (off unless enabled and allowlisted). */
export const AgentToAgentConfigSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "Enable agent-to-agent messaging." })),
    allow: Type.Optional(
      Type.Array(Type.String(), { description: "Agent ids (or patterns) allowed to talk." }),
    ),
  },
  { additionalProperties: false, description: "Agent-to-agent messaging policy." },
);
/** Static type of {@link AgentToAgentConfigSchema}. */
export type AgentToAgentConfig = Static<typeof AgentToAgentConfigSchema>;

/** Exec tool defaults. */
export const ExecToolConfigSchema = Type.Object(
  {
    host: Type.Optional(
      acceptedForCompat(
        Type.Union([Type.Literal("sandbox"), Type.Literal("gateway"), Type.Literal("node")], {
          description: "Where exec runs: sandbox, gateway or node.",
        }),
        "issue 18 (sandboxing)",
      ),
    ),
    security: Type.Optional(
      Type.Union([Type.Literal("deny"), Type.Literal("allowlist"), Type.Literal("full")], {
        description:
          "Which host commands exec runs: deny (none), allowlist (safe bins and exec-approvals.json patterns), full (all; the default).",
      }),
    ),
    ask: Type.Optional(
      Type.Union([Type.Literal("off"), Type.Literal("on-miss"), Type.Literal("always")], {
        description:
          "When exec waits for an approval: off (never; a miss is refused), on-miss (default), always.",
      }),
    ),
    node: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "Default node for host=node." }),
        "not implemented: exec runs on the gateway host or its sandbox; the nodes tool runs commands on a node",
      ),
    ),
    pathPrepend: Type.Optional(
      Type.Array(Type.String(), { description: "Dirs prepended to PATH." }),
    ),
    safeBins: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "Stdin-only binaries allowed in allowlist mode without an entry (default jq, grep, cut, sort, uniq, head, tail, tr, wc).",
      }),
    ),
    backgroundMs: Type.Optional(
      acceptedForCompat(
        Type.Integer({ minimum: 0, description: "Ms before a command auto-backgrounds." }),
        "no issue yet: exec auto-background",
      ),
    ),
    timeoutSec: Type.Optional(Type.Number({ minimum: 0, description: "Exec timeout (seconds)." })),
    cleanupMs: Type.Optional(
      acceptedForCompat(
        Type.Integer({ minimum: 0, description: "How long finished sessions are kept (ms)." }),
        "no issue yet",
      ),
    ),
    notifyOnExit: Type.Optional(
      acceptedForCompat(
        Type.Boolean({ description: "Emit an event when a background exec exits." }),
        "no issue yet",
      ),
    ),
    applyPatch: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean({ description: "Enable apply_patch." })),
          workspaceOnly: Type.Optional(
            Type.Boolean({ description: "Restrict apply_patch to the workspace." }),
          ),
          allowModels: Type.Optional(
            acceptedForCompat(
              Type.Array(Type.String(), { description: "Models allowed to use apply_patch." }),
              "no issue yet",
            ),
          ),
        },
        { additionalProperties: true, description: "apply_patch sub-tool settings." },
      ),
    ),
  },
  { additionalProperties: true, description: "Exec tool defaults." },
);
/** Static type of {@link ExecToolConfigSchema}. */
export type ExecToolConfig = Static<typeof ExecToolConfigSchema>;

/** Filesystem tool guards. */
export const FsToolConfigSchema = Type.Object(
  {
    workspaceOnly: Type.Optional(
      Type.Boolean({ description: "Restrict file tools to the agent workspace." }),
    ),
  },
  { additionalProperties: true, description: "Filesystem tool guards." },
);
/** Static type of {@link FsToolConfigSchema}. */
export type FsToolConfig = Static<typeof FsToolConfigSchema>;

/** Runtime detection of repetitive tool-call loops. */
export const LoopDetectionConfigSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "Enable tool-loop protection." })),
    historySize: Type.Optional(Type.Integer({ minimum: 1, description: "Calls remembered." })),
    warningThreshold: Type.Optional(Type.Integer({ minimum: 1, description: "Warn after N." })),
    criticalThreshold: Type.Optional(Type.Integer({ minimum: 1, description: "Block after N." })),
    globalCircuitBreakerThreshold: Type.Optional(
      Type.Integer({ minimum: 1, description: "Global no-progress breaker threshold." }),
    ),
    detectors: Type.Optional(
      Type.Object(
        {
          genericRepeat: Type.Optional(Type.Boolean({ description: "Identical repeated calls." })),
          knownPollNoProgress: Type.Optional(
            Type.Boolean({ description: "Known no-progress polling." }),
          ),
          pingPong: Type.Optional(Type.Boolean({ description: "Alternating ping-pong calls." })),
        },
        { additionalProperties: true, description: "Detector toggles." },
      ),
    ),
  },
  { additionalProperties: true, description: "Tool-loop detection." },
);
/** Static type of {@link LoopDetectionConfigSchema}. */
export type LoopDetectionConfig = Static<typeof LoopDetectionConfigSchema>;

/** Tool policy applied inside sandboxed sessions. */
export const SandboxToolsConfigSchema = Type.Object(
  { tools: Type.Optional(ToolListPolicySchema) },
  { additionalProperties: false, description: "Sandbox tool policy (deny wins)." },
);
/** Static type of {@link SandboxToolsConfigSchema}. */
export type SandboxToolsConfig = Static<typeof SandboxToolsConfigSchema>;

/** Per-sender tool overrides keyed by `id:`, `e164:`, `username:`, `name:` or `*`. */
export const ToolsBySenderSchema = Type.Record(Type.String(), ToolListPolicySchema, {
  description: "Per-sender tool policy keyed by id:/e164:/username:/name: or *.",
});
/** Static type of {@link ToolsBySenderSchema}. */
export type ToolsBySender = Static<typeof ToolsBySenderSchema>;

const toolPolicyProps = {
  profile: Type.Optional(ToolProfileSchema),
  allow: Type.Optional(Type.Array(Type.String(), { description: "Tools or tool groups allowed." })),
  alsoAllow: Type.Optional(
    Type.Array(Type.String(), { description: "Extra tools merged into the allowlist." }),
  ),
  deny: Type.Optional(Type.Array(Type.String(), { description: "Tools denied (deny wins)." })),
  byProvider: Type.Optional(
    Type.Record(Type.String(), ToolPolicySchema, {
      description: 'Policy overrides keyed by provider id or "provider/model".',
    }),
  ),
  toolsBySender: Type.Optional(
    acceptedForCompat(ToolsBySenderSchema, "no issue yet: per-sender tool policy"),
  ),
  elevated: Type.Optional(ElevatedConfigSchema),
  exec: Type.Optional(ExecToolConfigSchema),
  fs: Type.Optional(FsToolConfigSchema),
  loopDetection: Type.Optional(
    acceptedForCompat(LoopDetectionConfigSchema, "no issue yet: tool-loop detection"),
  ),
  sandbox: Type.Optional(SandboxToolsConfigSchema),
};

/** Per-agent tool restrictions (`agents.list[].tools`); can only narrow the global policy. */
export const AgentToolsConfigSchema = Type.Object(toolPolicyProps, {
  additionalProperties: true,
  description: "Per-agent tool policy (profile, allow/deny, elevated, exec, ...).",
});
/** Static type of {@link AgentToolsConfigSchema}. */
export type AgentToolsConfig = Static<typeof AgentToolsConfigSchema>;

/** Web search and fetch tools. */
export const WebToolsConfigSchema = Type.Object(
  {
    search: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean({ description: "Enable web_search." })),
          provider: Type.Optional(Type.String({ description: "Search provider id." })),
          apiKey: Type.Optional(
            Type.Union([Type.String(), SecretRefSchema], { description: "Search API key." }),
          ),
          maxResults: Type.Optional(Type.Integer({ minimum: 1, description: "Results count." })),
          timeoutSeconds: Type.Optional(Type.Number({ minimum: 0, description: "Timeout (s)." })),
          cacheTtlMinutes: Type.Optional(Type.Number({ minimum: 0, description: "Cache TTL." })),
        },
        { additionalProperties: true, description: "web_search settings." },
      ),
    ),
    fetch: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean({ description: "Enable web_fetch." })),
          maxChars: Type.Optional(Type.Integer({ minimum: 1, description: "Max chars returned." })),
          timeoutSeconds: Type.Optional(Type.Number({ minimum: 0, description: "Timeout (s)." })),
          userAgent: Type.Optional(Type.String({ description: "User-Agent override." })),
        },
        { additionalProperties: true, description: "web_fetch settings." },
      ),
    ),
  },
  { additionalProperties: true, description: "Web tools (search, fetch)." },
);
/** Static type of {@link WebToolsConfigSchema}. */
export type WebToolsConfig = Static<typeof WebToolsConfigSchema>;

/** Global tool policy and tool settings (`tools`). */
export const ToolsConfigSchema = Type.Object(
  {
    ...toolPolicyProps,
    agentToAgent: Type.Optional(AgentToAgentConfigSchema),
    sessions: Type.Optional(
      acceptedForCompat(
        Type.Object(
          {
            visibility: Type.Optional(
              Type.Union(
                [
                  Type.Literal("self"),
                  Type.Literal("tree"),
                  Type.Literal("agent"),
                  Type.Literal("all"),
                ],
                { description: "Which sessions session tools may target." },
              ),
            ),
          },
          { additionalProperties: true, description: "Session tool visibility." },
        ),
        "no issue yet: session tool visibility",
      ),
    ),
    subagents: Type.Optional(
      acceptedForCompat(
        Type.Object(
          {
            model: Type.Optional(
              Type.Union([Type.String(), ModelRefObjectSchema], {
                description: "Default model for spawned sub-agents.",
              }),
            ),
            tools: Type.Optional(ToolListPolicySchema),
          },
          { additionalProperties: true, description: "Sub-agent tool defaults (deny wins)." },
        ),
        "no issue yet: sub-agent model and tool policy (sub-agents run with their agent's)",
      ),
    ),
    web: Type.Optional(
      acceptedForCompat(WebToolsConfigSchema, "no issue yet: web_search / web_fetch tools"),
    ),
    message: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "message tool settings." }),
        "no issue yet: message tool settings",
      ),
    ),
    media: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Media understanding tools." }),
        "no issue yet: media understanding",
      ),
    ),
    links: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Link understanding tools." }),
        "no issue yet: link understanding",
      ),
    ),
  },
  { additionalProperties: true, description: "Global tool policy and tool settings." },
);
/** Static type of {@link ToolsConfigSchema}. */
export type ToolsConfig = Static<typeof ToolsConfigSchema>;
