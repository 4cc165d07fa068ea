// The remaining top-level sections. Those Pincer reads are modelled; the rest pass through
// as free-form objects so an existing OpenClaw config is still accepted.
import { type Static, Type } from "typebox";
import { acceptedForCompat, compatOptional, SecretRefSchema } from "./common.js";

/** `meta`: bookkeeping written by OpenClaw when it saves the file. */
export const MetaConfigSchema = Type.Object(
  {
    lastTouchedVersion: Type.Optional(Type.String({ description: "Last writer version." })),
    lastTouchedAt: Type.Optional(Type.String({ description: "Last write (ISO timestamp)." })),
    migrations: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Applied migrations." }),
    ),
  },
  // Bookkeeping, never a setting: other keys pass through without a warning (a schema, not `true`).
  { additionalProperties: Type.Unknown(), description: "Config file metadata." },
);
/** Static type of {@link MetaConfigSchema}. */
export type MetaConfig = Static<typeof MetaConfigSchema>;

/** `env`: env vars applied when missing from the process env; extra string keys are vars too. */
export const EnvConfigSchema = Type.Object(
  {
    vars: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: "Env vars applied when missing from the process env (the real env wins).",
      }),
    ),
    shellEnv: Type.Optional(
      acceptedForCompat(
        Type.Object(
          {
            enabled: Type.Optional(Type.Boolean({ description: "Import login-shell env." })),
            timeoutMs: Type.Optional(Type.Integer({ minimum: 0, description: "Shell timeout." })),
          },
          { additionalProperties: false, description: "Login shell env import." },
        ),
        "no issue yet: login-shell env import",
      ),
    ),
  },
  {
    additionalProperties: Type.String({ description: "Env var value (shorthand for vars)." }),
    description: "Environment variables.",
  },
);
/** Static type of {@link EnvConfigSchema}. */
export type EnvConfig = Static<typeof EnvConfigSchema>;

/** `wizard`: record of the last onboarding wizard run. */
export const WizardConfigSchema = Type.Object(
  {
    lastRunAt: Type.Optional(Type.String({ description: "Last run (ISO timestamp)." })),
    lastRunVersion: Type.Optional(Type.String({ description: "Version of the last run." })),
    lastRunCommit: Type.Optional(Type.String({ description: "Commit of the last run." })),
    lastRunCommand: Type.Optional(Type.String({ description: "Command of the last run." })),
    lastRunMode: Type.Optional(
      Type.Union([Type.Literal("local"), Type.Literal("remote")], { description: "Run mode." }),
    ),
  },
  // Bookkeeping, never a setting: other keys pass through without a warning (a schema, not `true`).
  { additionalProperties: Type.Unknown(), description: "Onboarding wizard state." },
);
/** Static type of {@link WizardConfigSchema}. */
export type WizardConfig = Static<typeof WizardConfigSchema>;

const logLevel = [
  Type.Literal("silent"),
  Type.Literal("fatal"),
  Type.Literal("error"),
  Type.Literal("warn"),
  Type.Literal("info"),
  Type.Literal("debug"),
  Type.Literal("trace"),
];

/** `logging`: file and console logging. */
export const LoggingConfigSchema = Type.Object(
  {
    level: Type.Optional(Type.Union(logLevel, { description: "File log level." })),
    file: Type.Optional(Type.String({ description: "Log file path." })),
    maxFileBytes: Type.Optional(Type.Integer({ minimum: 1, description: "Rotate at (bytes)." })),
    consoleLevel: Type.Optional(Type.Union(logLevel, { description: "Console log level." })),
    consoleStyle: Type.Optional(
      Type.Union([Type.Literal("pretty"), Type.Literal("compact"), Type.Literal("json")], {
        description: "Console format.",
      }),
    ),
    redactSensitive: Type.Optional(
      Type.Union([Type.Literal("off"), Type.Literal("tools")], { description: "Redaction." }),
    ),
    redactPatterns: Type.Optional(
      Type.Array(Type.String(), { description: "Extra redaction regexes." }),
    ),
  },
  { additionalProperties: true, description: "Logging settings." },
);
/** Static type of {@link LoggingConfigSchema}. */
export type LoggingConfig = Static<typeof LoggingConfigSchema>;

/** `update`: update channel and checks. */
export const UpdateConfigSchema = Type.Object(
  {
    channel: Type.Optional(
      Type.Union(
        [
          Type.Literal("stable"),
          Type.Literal("extended-stable"),
          Type.Literal("beta"),
          Type.Literal("dev"),
        ],
        { description: "Update channel." },
      ),
    ),
    checkOnStart: Type.Optional(Type.Boolean({ description: "Check for updates on start." })),
    auto: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Auto-update policy." }),
    ),
  },
  { additionalProperties: true, description: "Update settings." },
);
/** Static type of {@link UpdateConfigSchema}. */
export type UpdateConfig = Static<typeof UpdateConfigSchema>;

/** `ui`: UI chrome and assistant presentation. */
export const UiConfigSchema = Type.Object(
  {
    seamColor: Type.Optional(Type.String({ description: "Accent color (hex)." })),
    assistant: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(Type.String({ description: "Assistant display name." })),
          avatar: Type.Optional(Type.String({ description: "Assistant avatar." })),
        },
        { additionalProperties: true, description: "Assistant presentation." },
      ),
    ),
    prefs: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Operator display prefs." }),
    ),
  },
  { additionalProperties: true, description: "UI settings." },
);
/** Static type of {@link UiConfigSchema}. */
export type UiConfig = Static<typeof UiConfigSchema>;

/** `hooks.mappings[]`: one custom webhook path (`POST <hooks.path>/<match.path>`) or payload source. */
export const HookMappingSchema = Type.Object(
  {
    id: Type.Optional(Type.String({ description: "Mapping id (logs)." })),
    match: Type.Optional(
      Type.Object(
        {
          path: Type.Optional(Type.String({ description: "Sub-path after hooks.path." })),
          source: Type.Optional(Type.String({ description: "Payload `source` field to match." })),
        },
        { additionalProperties: true, description: "What the mapping answers." },
      ),
    ),
    action: Type.Optional(
      Type.Union([Type.Literal("wake"), Type.Literal("agent")], {
        description: "wake (system event) or agent (a turn); default agent.",
      }),
    ),
    wakeMode: Type.Optional(
      Type.Union([Type.Literal("now"), Type.Literal("next-heartbeat")], {
        description: "Heartbeat now (default) or at the next beat.",
      }),
    ),
    name: Type.Optional(Type.String({ description: "Hook name (summary prefix)." })),
    agentId: Type.Optional(Type.String({ description: "Agent that runs the turn." })),
    sessionKey: Type.Optional(Type.String({ description: "Session key template." })),
    messageTemplate: Type.Optional(Type.String({ description: "Agent message template." })),
    textTemplate: Type.Optional(Type.String({ description: "Wake text template." })),
    deliver: Type.Optional(Type.Boolean({ description: "Deliver the reply (default true)." })),
    channel: Type.Optional(Type.String({ description: "Delivery channel (default last)." })),
    to: Type.Optional(Type.String({ description: "Delivery peer (template)." })),
    model: Type.Optional(Type.String({ description: "Model for the turn." })),
    thinking: Type.Optional(Type.String({ description: "Thinking level for the turn." })),
    timeoutSeconds: Type.Optional(Type.Number({ description: "Turn timeout (0 = none)." })),
    allowUnsafeExternalContent: Type.Optional(
      Type.Boolean({ description: "Skip the untrusted-content wrapper." }),
    ),
    transform: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Code transform module." }),
        "no issue yet: hook transforms",
      ),
    ),
    fallbacks: Type.Optional(
      acceptedForCompat(
        Type.Array(Type.String(), { description: "Fallback models." }),
        "no issue yet: per-hook model fallbacks",
      ),
    ),
  },
  { additionalProperties: true, description: "Webhook mapping." },
);

/** `hooks.internal.entries.<name>`: one internal hook's switch, env and hook-specific options. */
export const InternalHookEntrySchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "Run this hook (default true)." })),
    env: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: "Env the hook may need." }),
    ),
  },
  // Hook-specific options (a hook reads its own entry), so extra keys are the hook's, not unknown.
  { additionalProperties: Type.Unknown(), description: "Internal hook settings." },
);

/** `hooks.internal`: event hooks run inside the gateway (hook folders with HOOK.md). */
export const InternalHooksConfigSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "Run internal hooks (default off)." })),
    entries: Type.Optional(
      Type.Record(Type.String(), InternalHookEntrySchema, { description: "Per-hook settings." }),
    ),
    load: Type.Optional(
      Type.Object(
        {
          extraDirs: Type.Optional(
            Type.Array(Type.String(), { description: "More hook folders to scan." }),
          ),
        },
        { additionalProperties: true, description: "Hook discovery." },
      ),
    ),
    handlers: Type.Optional(
      acceptedForCompat(
        Type.Array(Type.Record(Type.String(), Type.Unknown()), {
          description: "Legacy handler list.",
        }),
        "no issue yet: legacy hooks.internal.handlers (use hook folders)",
      ),
    ),
    installs: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Hook pack install records." }),
        "no issue yet: hook pack installs",
      ),
    ),
  },
  { additionalProperties: true, description: "Internal (event) hooks." },
);

/** `hooks`: webhook ingress and internal hooks. */
export const HooksConfigSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "Enable webhook ingress." })),
    path: Type.Optional(Type.String({ description: "Webhook base path (default /hooks)." })),
    token: Type.Optional(
      Type.Union([Type.String(), SecretRefSchema], { description: "Webhook bearer token." }),
    ),
    maxBodyBytes: Type.Optional(
      Type.Number({ description: "Webhook body cap in bytes (default 262144)." }),
    ),
    defaultSessionKey: Type.Optional(Type.String({ description: "Default hook session key." })),
    allowRequestSessionKey: Type.Optional(
      Type.Boolean({ description: "Let /hooks/agent callers pick sessionKey (default false)." }),
    ),
    allowedSessionKeyPrefixes: Type.Optional(
      Type.Array(Type.String(), { description: "Prefixes an explicit session key must have." }),
    ),
    allowedAgentIds: Type.Optional(
      Type.Array(Type.String(), { description: "Agents hooks may target." }),
    ),
    presets: Type.Optional(
      acceptedForCompat(
        Type.Array(Type.String(), { description: "Enabled presets." }),
        "no issue yet: hook presets (gmail)",
      ),
    ),
    transformsDir: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "Hook transforms directory." }),
        "no issue yet: hook transforms",
      ),
    ),
    mappings: Type.Optional(Type.Array(HookMappingSchema, { description: "Hook mappings." })),
    gmail: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Gmail hook settings." }),
        "no issue yet: Gmail Pub/Sub watcher",
      ),
    ),
    internal: Type.Optional(InternalHooksConfigSchema),
  },
  { additionalProperties: true, description: "Hooks settings." },
);
/** Static type of {@link HooksConfigSchema}. */
export type HooksConfig = Static<typeof HooksConfigSchema>;
/** Static type of {@link HookMappingSchema}. */
export type HookMappingConfig = Static<typeof HookMappingSchema>;
/** Static type of {@link InternalHooksConfigSchema}. */
export type InternalHooksConfig = Static<typeof InternalHooksConfigSchema>;

/** `plugins.entries.<id>.hooks`: the operator's hook budgets and prompt-injection switch. */
const PluginEntryHooksSchema = Type.Object(
  {
    timeoutMs: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 600_000, description: "Every hook's time limit (ms)." }),
    ),
    timeouts: Type.Optional(
      Type.Record(Type.String(), Type.Integer({ minimum: 1, maximum: 600_000 }), {
        description: "Time limit (ms) per hook name; wins over timeoutMs.",
      }),
    ),
    allowPromptInjection: Type.Optional(
      Type.Boolean({
        description: "false: the plugin's prompt-changing hook results are ignored.",
      }),
    ),
    allowConversationAccess: compatOptional(
      Type.Boolean({ description: "Conversation access for agent_end / llm hooks." }),
      "issue 19 (plugins): agent_end runs for every loaded plugin",
    ),
  },
  { additionalProperties: true, description: "Hook settings of this plugin." },
);

/** `plugins.entries.<id>`: a plugin's switch and its own config. */
const PluginEntrySchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "false: the plugin is not loaded." })),
    config: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: "The plugin's own config (api.pluginConfig).",
      }),
    ),
    hooks: Type.Optional(PluginEntryHooksSchema),
  },
  { additionalProperties: true, description: "One plugin's settings." },
);

/** `plugins`: plugin loading, allow/deny lists and per-plugin entries. */
export const PluginsConfigSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "Enable plugin loading (default true)." })),
    allow: Type.Optional(
      Type.Array(Type.String(), { description: "Plugin allowlist (ids); empty: every plugin." }),
    ),
    deny: Type.Optional(Type.Array(Type.String(), { description: "Plugin denylist (wins)." })),
    load: Type.Optional(
      Type.Object(
        {
          paths: Type.Optional(
            Type.Array(Type.String(), { description: "Plugin files or folders to load." }),
          ),
        },
        { additionalProperties: true, description: "Plugin loading." },
      ),
    ),
    slots: compatOptional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Slot owners (memory, ...)." }),
      "issue 19 (plugins): exclusive plugin slots",
    ),
    installs: compatOptional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Installed plugin records." }),
      "issue 19 (plugins): pincer plugins install",
    ),
    entries: Type.Optional(
      Type.Record(Type.String(), PluginEntrySchema, { description: "Per-plugin settings by id." }),
    ),
  },
  { additionalProperties: true, description: "Plugin settings." },
);
/** Static type of {@link PluginsConfigSchema}. */
export type PluginsConfig = Static<typeof PluginsConfigSchema>;

/** `cron`: the gateway's scheduler (src/cron/): jobs in `<stateDir>/cron/jobs.json`. */
export const CronConfigSchema = Type.Object(
  {
    enabled: Type.Optional(
      Type.Boolean({
        description: "Run the scheduler (default true; OPENCLAW_SKIP_CRON=1 also stops it).",
      }),
    ),
    store: Type.Optional(
      Type.String({
        description: "Path of jobs.json (default <stateDir>/cron/jobs.json); runs/ sits beside it.",
      }),
    ),
    maxConcurrentRuns: Type.Optional(
      Type.Integer({ minimum: 1, description: "Jobs run at the same time at most (default 1)." }),
    ),
    skipMissedJobs: Type.Optional(
      Type.Boolean({
        description:
          "At start, a recurring job whose slot passed while the gateway was down waits for its next slot instead of running once.",
      }),
    ),
    runLog: Type.Optional(
      Type.Object(
        {
          maxBytes: Type.Optional(
            Type.Union(
              [
                Type.Integer({ minimum: 1 }),
                Type.String({ pattern: "^\\d+(\\.\\d+)?\\s*([kKmMgG]?[bB])?$" }),
              ],
              {
                description:
                  'Size past which runs/<jobId>.jsonl is pruned (default 2000000; "2mb" works).',
              },
            ),
          ),
          keepLines: Type.Optional(
            Type.Integer({
              minimum: 1,
              description: "Newest lines a pruned run log keeps (default 2000).",
            }),
          ),
        },
        { additionalProperties: false, description: "Run history limits." },
      ),
    ),
    webhook: Type.Optional(
      Type.String({
        description:
          'Legacy webhook URL for stored jobs with notify: true (deprecated: give the job delivery {mode: "webhook", to: "<url>"}).',
      }),
    ),
    webhookToken: Type.Optional(
      Type.Union([Type.String(), SecretRefSchema], {
        description:
          "Bearer token sent as Authorization on every cron webhook POST (a string, a $VAR reference, or an env SecretRef).",
      }),
    ),
    sessionRetention: compatOptional(
      Type.Union([Type.String(), Type.Literal(false)], {
        description: "Retention of cron run sessions (false = keep).",
      }),
      "issue 19: isolated cron sessions are reset each run, never pruned",
    ),
  },
  { additionalProperties: true, description: "Cron settings." },
);
/** Static type of {@link CronConfigSchema}. */
export type CronConfig = Static<typeof CronConfigSchema>;
