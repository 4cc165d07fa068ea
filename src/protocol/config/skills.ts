// `skills`: bundled allowlist, extra skill folders, install preferences and per-skill entries.
import { type Static, Type } from "typebox";
import { acceptedForCompat, compatOptional, SecretRefSchema } from "./common.js";

/** `skills.entries.<name>`: enable/disable a skill and give it credentials or config. */
export const SkillEntrySchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: "Enable or disable the skill." })),
    // Counted by the skill's gates (a required env var is "provided"), but never put in a run's env.
    apiKey: compatOptional(
      Type.Union([Type.String(), SecretRefSchema], {
        description: "API key exposed as the skill's primaryEnv.",
      }),
      "no issue yet: skill env is not injected into runs (it only satisfies the skill's gate)",
    ),
    env: compatOptional(
      Type.Record(Type.String(), Type.String(), { description: "Env vars for the skill." }),
      "no issue yet: skill env is not injected into runs (it only satisfies the skill's gate)",
    ),
    config: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Skill-specific config." }),
    ),
  },
  { additionalProperties: true, description: "Per-skill settings." },
);
/** Static type of {@link SkillEntrySchema}. */
export type SkillEntry = Static<typeof SkillEntrySchema>;

/** `skills.load`: extra skill folders and watching. */
export const SkillsLoadSchema = Type.Object(
  {
    extraDirs: Type.Optional(
      Type.Array(Type.String(), { description: "Extra skill folders (lowest precedence)." }),
    ),
    watch: Type.Optional(
      acceptedForCompat(
        Type.Boolean({ description: "Watch skill folders for changes." }),
        "no issue yet: skill watching",
      ),
    ),
    watchDebounceMs: Type.Optional(
      acceptedForCompat(
        Type.Integer({ minimum: 0, description: "Watch debounce (ms)." }),
        "no issue yet: skill watching",
      ),
    ),
    allowSymlinkTargets: Type.Optional(
      acceptedForCompat(
        Type.Array(Type.String(), { description: "Dirs skill symlinks may point into." }),
        "no issue yet",
      ),
    ),
  },
  { additionalProperties: true, description: "Skill loading." },
);
/** Static type of {@link SkillsLoadSchema}. */
export type SkillsLoad = Static<typeof SkillsLoadSchema>;

/** `skills`: which skills load and how they are configured. */
export const SkillsConfigSchema = Type.Object(
  {
    allowBundled: Type.Optional(
      Type.Array(Type.String(), { description: "Allowlist of bundled skills." }),
    ),
    load: Type.Optional(SkillsLoadSchema),
    install: Type.Optional(
      acceptedForCompat(
        Type.Object(
          {
            preferBrew: Type.Optional(Type.Boolean({ description: "Prefer Homebrew installs." })),
            nodeManager: Type.Optional(
              Type.Union(
                [
                  Type.Literal("npm"),
                  Type.Literal("pnpm"),
                  Type.Literal("yarn"),
                  Type.Literal("bun"),
                ],
                { description: "Node package manager." },
              ),
            ),
          },
          { additionalProperties: true, description: "Skill dependency installs." },
        ),
        "no issue yet: skill dependency installs",
      ),
    ),
    limits: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Skill loading limits." }),
        "no issue yet: skill loading limits",
      ),
    ),
    workshop: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Skill workshop settings." }),
        "no issue yet: skill workshop",
      ),
    ),
    entries: Type.Optional(
      Type.Record(Type.String(), SkillEntrySchema, { description: "Per-skill settings by name." }),
    ),
  },
  { additionalProperties: false, description: "Skills settings." },
);
/** Static type of {@link SkillsConfigSchema}. */
export type SkillsConfig = Static<typeof SkillsConfigSchema>;
