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

/** `hooks`: webhook ingress and internal hooks. */
export const HooksConfigSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "Enable webhook ingress." })),
    path: Type.Optional(Type.String({ description: "Webhook base path." })),
    token: Type.Optional(
      Type.Union([Type.String(), SecretRefSchema], { description: "Webhook bearer token." }),
    ),
    defaultSessionKey: Type.Optional(Type.String({ description: "Default hook session key." })),
    allowedAgentIds: Type.Optional(
      Type.Array(Type.String(), { description: "Agents hooks may target." }),
    ),
    presets: Type.Optional(Type.Array(Type.String(), { description: "Enabled presets." })),
    transformsDir: Type.Optional(Type.String({ description: "Hook transforms directory." })),
    mappings: Type.Optional(
      Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: "Hook mappings." }),
    ),
    gmail: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Gmail hook settings." }),
    ),
    internal: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Internal (event) hooks." }),
    ),
  },
  { additionalProperties: true, description: "Hooks settings." },
);
/** Static type of {@link HooksConfigSchema}. */
export type HooksConfig = Static<typeof HooksConfigSchema>;

/** `plugins`: plugin loading, allow/deny lists and per-plugin entries. */
export const PluginsConfigSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "Enable plugin loading." })),
    allow: Type.Optional(Type.Array(Type.String(), { description: "Plugin allowlist." })),
    deny: Type.Optional(Type.Array(Type.String(), { description: "Plugin denylist." })),
    load: Type.Optional(
      Type.Object(
        { paths: Type.Optional(Type.Array(Type.String(), { description: "Extra plugin paths." })) },
        { additionalProperties: true, description: "Plugin loading." },
      ),
    ),
    slots: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Slot owners (memory, ...)." }),
    ),
    entries: Type.Optional(
      Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
        description: "Per-plugin settings by id.",
      }),
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
    webhook: compatOptional(
      Type.Unknown({ description: "Cron webhook delivery." }),
      "issue 19: cron webhook delivery is not implemented",
    ),
    webhookToken: compatOptional(
      Type.Union([Type.String(), SecretRefSchema], { description: "Cron webhook token." }),
      "issue 19: cron webhook delivery is not implemented",
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
