// The TypeBox schema of `openclaw.json` (JSON5): the root object and every section schema.
import { type Static, Type } from "typebox";
import { AgentsConfigSchema, LegacyAgentConfigSchema } from "./agents.js";
import { BindingsSchema } from "./bindings.js";
import { ChannelsConfigSchema } from "./channels.js";
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

export * from "./agent-parts.js";
export * from "./agents.js";
export * from "./bindings.js";
export * from "./channels.js";
export * from "./common.js";
export * from "./gateway.js";
export * from "./messages.js";
export * from "./misc.js";
export * from "./models.js";
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
      Type.Record(Type.String(), Type.Unknown(), { description: "Diagnostics and OTEL export." }),
    ),
    logging: Type.Optional(LoggingConfigSchema),
    update: Type.Optional(UpdateConfigSchema),
    telemetry: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Telemetry consent." }),
    ),
    browser: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Browser tool settings." }),
    ),
    ui: Type.Optional(UiConfigSchema),
    secrets: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "SecretRef providers." }),
    ),
    auth: Type.Optional(AuthConfigSchema),
    accessGroups: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Named sender access groups." }),
    ),
    acp: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Agent Client Protocol." }),
    ),
    models: Type.Optional(ModelsConfigSchema),
    nodeHost: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Node host settings." }),
    ),
    agents: Type.Optional(AgentsConfigSchema),
    agent: Type.Optional(LegacyAgentConfigSchema),
    worktreeRoot: Type.Optional(
      Type.String({ minLength: 1, description: "Root of agent worktrees (absolute or ~)." }),
    ),
    worktreeAcceleration: Type.Optional(
      Type.Boolean({ description: "Copy-on-write worktree acceleration (default true)." }),
    ),
    tools: Type.Optional(ToolsConfigSchema),
    security: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Audit and install policy." }),
    ),
    bindings: Type.Optional(BindingsSchema),
    broadcast: Type.Optional(BroadcastConfigSchema),
    attachments: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Attachment retention." }),
    ),
    messages: Type.Optional(MessagesConfigSchema),
    tts: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Text-to-speech." }),
    ),
    commands: Type.Optional(CommandsConfigSchema),
    approvals: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Exec/plugin approvals." }),
    ),
    session: Type.Optional(SessionConfigSchema),
    cron: Type.Optional(CronConfigSchema),
    transcripts: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Meeting transcripts." }),
    ),
    hooks: Type.Optional(HooksConfigSchema),
    channels: Type.Optional(ChannelsConfigSchema),
    discovery: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "mDNS / wide-area discovery." }),
    ),
    talk: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Talk (voice) mode." }),
    ),
    gateway: Type.Optional(GatewayConfigSchema),
    cloudWorkers: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Cloud worker settings." }),
    ),
    desktop: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Desktop host settings." }),
    ),
    memory: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Memory backend settings." }),
    ),
    mcp: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "MCP servers and apps." }),
    ),
    skills: Type.Optional(SkillsConfigSchema),
    plugins: Type.Optional(PluginsConfigSchema),
    surfaces: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Per-surface reply policy." }),
    ),
    proxy: Type.Optional(
      Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())], {
        description: "Outbound proxy settings.",
      }),
    ),
    cli: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "[legacy] CLI settings." }),
    ),
    audio: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "[legacy] Audio transcription." }),
    ),
    web: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: "[legacy] WhatsApp web provider.",
      }),
    ),
    canvasHost: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "[legacy] Canvas host." }),
    ),
    vault: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "[legacy] Vault settings." }),
    ),
  },
  { additionalProperties: false, description: "OpenClaw configuration (openclaw.json)." },
);
/** Static type of {@link OpenClawConfigSchema}: a parsed `openclaw.json`. */
export type OpenClawConfig = Static<typeof OpenClawConfigSchema>;
