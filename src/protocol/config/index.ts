// The TypeBox schema of `openclaw.json` (JSON5): the root object and every section schema.
import { type Static, Type } from "typebox";
import { AccessGroupsConfigSchema } from "./access-groups.js";
import { AgentsConfigSchema, LegacyAgentConfigSchema } from "./agents.js";
import { BindingsSchema } from "./bindings.js";
import { ChannelsConfigSchema } from "./channels.js";
import { ClusterConfigSchema } from "./cluster.js";
import { acceptedForCompat } from "./common.js";
import { GatewayConfigSchema } from "./gateway.js";
import { BroadcastConfigSchema, CommandsConfigSchema, MessagesConfigSchema } from "./messages.js";
import {
  CronConfigSchema,
  EnvConfigSchema,
  HooksConfigSchema,
  LoggingConfigSchema,
  MetaConfigSchema,
  PluginsConfigSchema,
  UiConfigSchema,
  UpdateConfigSchema,
  WizardConfigSchema,
} from "./misc.js";
import { AuthConfigSchema, ModelsConfigSchema } from "./models.js";
import { SessionConfigSchema } from "./session.js";
import { SkillsConfigSchema } from "./skills.js";
import { ToolsConfigSchema } from "./tools.js";

export * from "./access-groups.js";
export * from "./agent-parts.js";
export * from "./agents.js";
export * from "./bindings.js";
export * from "./budget.js";
export * from "./channel-access.js";
export * from "./channel-streaming.js";
export * from "./channels.js";
export * from "./cluster.js";
export * from "./common.js";
export * from "./gateway.js";
export * from "./memory-search.js";
export * from "./messages.js";
export * from "./misc.js";
export * from "./models.js";
export * from "./restart-keys.js";
export * from "./session.js";
export * from "./skills.js";
export * from "./tools.js";

/**
 * The whole `openclaw.json`. Unknown top-level keys are errors (`additionalProperties: false`),
 * so every top-level key OpenClaw accepts is listed; sections Pincer does not read pass through.
 */
export const OpenClawConfigSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ description: "JSON Schema URL for editors." })),
    $include: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], {
        description: "File(s) merged into this config; resolved by the loader.",
      }),
    ),
    meta: Type.Optional(MetaConfigSchema),
    env: Type.Optional(EnvConfigSchema),
    wizard: Type.Optional(WizardConfigSchema),
    diagnostics: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Diagnostics and OTEL export." }),
        "no issue yet: diagnostics and OTEL export",
      ),
    ),
    logging: Type.Optional(LoggingConfigSchema),
    update: Type.Optional(acceptedForCompat(UpdateConfigSchema, "no issue yet: self-update")),
    telemetry: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Telemetry consent." }),
        "no issue yet",
      ),
    ),
    browser: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Browser tool settings." }),
        "no issue yet: browser tool",
      ),
    ),
    ui: Type.Optional(acceptedForCompat(UiConfigSchema, "issue 17 (Control UI)")),
    secrets: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "SecretRef providers." }),
        "no issue yet: SecretRef providers",
      ),
    ),
    auth: Type.Optional(AuthConfigSchema),
    accessGroups: Type.Optional(AccessGroupsConfigSchema),
    acp: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Agent Client Protocol." }),
        "no issue yet: Agent Client Protocol",
      ),
    ),
    models: Type.Optional(ModelsConfigSchema),
    nodeHost: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Node host settings." }),
        "not read: `pincer node run` takes its settings as flags (--roots, --allow)",
      ),
    ),
    agents: Type.Optional(AgentsConfigSchema),
    agent: Type.Optional(LegacyAgentConfigSchema),
    worktreeRoot: Type.Optional(
      acceptedForCompat(
        Type.String({ minLength: 1, description: "Root of agent worktrees (absolute or ~)." }),
        "no issue yet: agent worktrees",
      ),
    ),
    worktreeAcceleration: Type.Optional(
      acceptedForCompat(
        Type.Boolean({ description: "Copy-on-write worktree acceleration (default true)." }),
        "no issue yet: agent worktrees",
      ),
    ),
    tools: Type.Optional(ToolsConfigSchema),
    security: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Audit and install policy." }),
        "no issue yet",
      ),
    ),
    bindings: Type.Optional(BindingsSchema),
    broadcast: Type.Optional(BroadcastConfigSchema),
    attachments: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Attachment retention." }),
        "no issue yet",
      ),
    ),
    messages: Type.Optional(MessagesConfigSchema),
    tts: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Text-to-speech." }),
        "no issue yet: text-to-speech",
      ),
    ),
    commands: Type.Optional(CommandsConfigSchema),
    approvals: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Exec/plugin approvals." }),
        "issue 18 (exec approvals)",
      ),
    ),
    session: Type.Optional(SessionConfigSchema),
    cron: Type.Optional(CronConfigSchema),
    transcripts: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Meeting transcripts." }),
        "no issue yet",
      ),
    ),
    hooks: Type.Optional(HooksConfigSchema),
    channels: Type.Optional(ChannelsConfigSchema),
    discovery: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "mDNS / wide-area discovery." }),
        "no issue yet: mDNS discovery",
      ),
    ),
    talk: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Talk (voice) mode." }),
        "no issue yet: talk mode",
      ),
    ),
    gateway: Type.Optional(GatewayConfigSchema),
    cluster: Type.Optional(ClusterConfigSchema),
    cloudWorkers: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Cloud worker settings." }),
        "not read: Pincer's workers are configured under `cluster` (see Scaling out)",
      ),
    ),
    desktop: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Desktop host settings." }),
        "no issue yet",
      ),
    ),
    memory: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Memory backend settings." }),
        "issue 19 (memory)",
      ),
    ),
    mcp: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "MCP servers and apps." }),
        "no issue yet: MCP servers",
      ),
    ),
    skills: Type.Optional(SkillsConfigSchema),
    plugins: Type.Optional(PluginsConfigSchema),
    surfaces: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Per-surface reply policy." }),
        "no issue yet",
      ),
    ),
    proxy: Type.Optional(
      acceptedForCompat(
        Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())], {
          description: "Outbound proxy settings.",
        }),
        "no issue yet: outbound proxy",
      ),
    ),
    cli: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "[legacy] CLI settings." }),
        "no issue yet (legacy section)",
      ),
    ),
    audio: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), {
          description: "[legacy] Audio transcription.",
        }),
        "no issue yet (legacy section)",
      ),
    ),
    web: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), {
          description: "[legacy] WhatsApp web provider.",
        }),
        "issue 15 (WhatsApp; legacy section)",
      ),
    ),
    canvasHost: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "[legacy] Canvas host." }),
        "no issue yet (legacy section)",
      ),
    ),
    vault: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "[legacy] Vault settings." }),
        "no issue yet (legacy section)",
      ),
    ),
  },
  { additionalProperties: false, description: "OpenClaw configuration (openclaw.json)." },
);
/** Static type of {@link OpenClawConfigSchema}: a parsed `openclaw.json`. */
export type OpenClawConfig = Static<typeof OpenClawConfigSchema>;
