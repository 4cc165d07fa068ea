// Building blocks shared by several sections of the `openclaw.json` schema.
import { type Static, type TSchema, Type } from "typebox";
import { COMPAT_MARK_KEY, COMPAT_NOTE_KEY } from "./compat-mark.js";

export { COMPAT_MARK_KEY, COMPAT_NOTE_KEY } from "./compat-mark.js";

/**
 * Marks `schema` as an OpenClaw key Pincer accepts and ignores: validation still passes, and
 * `src/config/compat-keys.ts` tells the user (config validate, status, doctor, gateway start) once per
 * marked key a config uses. Returns a copy (shared schemas stay unmarked elsewhere). Remove the mark
 * where Pincer starts acting on the key.
 */
export function acceptedForCompat<T extends TSchema>(schema: T, note: string): T {
  return { ...schema, [COMPAT_MARK_KEY]: "compat", [COMPAT_NOTE_KEY]: note };
}

/** `Type.Optional(acceptedForCompat(schema, note))`: an optional key accepted, ignored and warned about. */
export function compatOptional<T extends TSchema>(schema: T, note: string) {
  return Type.Optional(acceptedForCompat(schema, note));
}

/** The object form of a model reference: a primary `provider/model` plus ordered fallbacks. */
export const ModelRefObjectSchema = Type.Object(
  {
    primary: Type.Optional(Type.String({ description: "Primary model ref (provider/model)." })),
    fallbacks: Type.Optional(
      Type.Array(Type.String(), { description: "Fallback model refs tried in order." }),
    ),
    byChatType: Type.Optional(
      acceptedForCompat(
        Type.Object(
          {
            direct: Type.Optional(Type.String({ description: "Model for direct chats." })),
            group: Type.Optional(Type.String({ description: "Model for group chats." })),
            channel: Type.Optional(Type.String({ description: "Model for channels/rooms." })),
          },
          { additionalProperties: false, description: "Per-chat-type model overrides." },
        ),
        "no issue yet: per-chat-type models",
      ),
    ),
  },
  { additionalProperties: false, description: "Model selection: primary plus fallbacks." },
);
/** Static type of {@link ModelRefObjectSchema}. */
export type ModelRefObject = Static<typeof ModelRefObjectSchema>;

/** A model reference: `"provider/model"` (or an alias) or `{ primary, fallbacks }`. */
export const ModelRefSchema = Type.Union([Type.String({ minLength: 1 }), ModelRefObjectSchema], {
  description: 'Model ref: "provider/model" string or { primary, fallbacks }.',
});
/** Static type of {@link ModelRefSchema}. */
export type ModelRef = Static<typeof ModelRefSchema>;

/** Where a SecretRef is resolved from. */
export const SecretSourceSchema = Type.Union(
  [Type.Literal("env"), Type.Literal("file"), Type.Literal("exec"), Type.Literal("store")],
  { description: "Secret source: env, file, exec (or store in newer releases)." },
);
/** Static type of {@link SecretSourceSchema}. */
export type SecretSource = Static<typeof SecretSourceSchema>;

/** A reference to a secret kept outside the config file. */
export const SecretRefSchema = Type.Object(
  {
    source: SecretSourceSchema,
    provider: Type.Optional(
      Type.String({ description: 'Configured secrets provider alias (default "default").' }),
    ),
    id: Type.String({ minLength: 1, description: "Secret id: env var name, JSON pointer or key." }),
  },
  { additionalProperties: false, description: "SecretRef: { source, provider?, id }." },
);
/** Static type of {@link SecretRefSchema}. */
export type SecretRef = Static<typeof SecretRefSchema>;

/** A secret value: an inline string (may use `${VAR}`) or a SecretRef. */
export const SecretInputSchema = Type.Union([Type.String(), SecretRefSchema], {
  description: "Secret: inline string (env placeholders allowed) or a SecretRef object.",
});
/** Static type of {@link SecretInputSchema}. */
export type SecretInput = Static<typeof SecretInputSchema>;

/** A list of sender ids; numbers are accepted for platforms with numeric ids. */
export const AllowFromListSchema = Type.Array(Type.Union([Type.String(), Type.Number()]), {
  description: 'Allowed sender ids (strings or numbers; "*" allows everyone).',
});
/** Static type of {@link AllowFromListSchema}. */
export type AllowFromList = Static<typeof AllowFromListSchema>;

/** Per-channel sender allowlists keyed by channel id (or `"*"`). */
export const AllowFromByChannelSchema = Type.Record(Type.String(), AllowFromListSchema, {
  description: 'Sender allowlists keyed by channel id (or "*" for every channel).',
});
/** Static type of {@link AllowFromByChannelSchema}. */
export type AllowFromByChannel = Static<typeof AllowFromByChannelSchema>;

/** An allow/alsoAllow/deny tool list used by groups, senders and sub-scopes. */
export const ToolListPolicySchema = Type.Object(
  {
    allow: Type.Optional(
      Type.Array(Type.String(), { description: "Tools or tool groups allowed." }),
    ),
    alsoAllow: Type.Optional(
      Type.Array(Type.String(), { description: "Extra tools merged into the allowlist." }),
    ),
    deny: Type.Optional(Type.Array(Type.String(), { description: "Tools denied (deny wins)." })),
  },
  { additionalProperties: false, description: "Tool allow/deny lists." },
);
/** Static type of {@link ToolListPolicySchema}. */
export type ToolListPolicy = Static<typeof ToolListPolicySchema>;

/** When the typing indicator starts (agent defaults and the session section share it). */
export const TypingModeSchema = Type.Union(
  [
    Type.Literal("never"),
    Type.Literal("instant"),
    // Accepted: the indicator still starts at once (as "instant").
    acceptedForCompat(Type.Literal("thinking"), "no issue yet: typing starts at once (instant)"),
    acceptedForCompat(Type.Literal("message"), "no issue yet: typing starts at once (instant)"),
  ],
  { description: "When the typing indicator starts." },
);

/** An arbitrary JSON object whose keys Pincer does not interpret. */
export const OpenObjectSchema = Type.Record(Type.String(), Type.Unknown(), {
  description: "Free-form object passed through unchanged.",
});
/** Static type of {@link OpenObjectSchema}. */
export type OpenObject = Static<typeof OpenObjectSchema>;
