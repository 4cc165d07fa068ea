// `models` (custom providers and their model catalogs) and `auth` (auth profiles).
import { type Static, Type } from "typebox";
import { acceptedForCompat, SecretRefSchema } from "./common.js";

/** Wire API spoken by a provider or model. */
export const ModelApiSchema = Type.Union(
  [
    Type.Literal("openai-completions"),
    Type.Literal("openai-responses"),
    Type.Literal("openai-chatgpt-responses"),
    Type.Literal("openai-codex-responses"),
    Type.Literal("anthropic-messages"),
    Type.Literal("google-generative-ai"),
    Type.Literal("google-vertex"),
    Type.Literal("github-copilot"),
    Type.Literal("bedrock-converse-stream"),
    Type.Literal("ollama"),
    Type.Literal("pi-messages"),
    Type.Literal("azure-openai-responses"),
  ],
  { description: "Provider API (openai-completions, anthropic-messages, ...)." },
);
/** Static type of {@link ModelApiSchema}. */
export type ModelApi = Static<typeof ModelApiSchema>;

/** Per-million-token prices of a model. */
export const ModelCostSchema = Type.Object(
  {
    input: Type.Optional(Type.Number({ minimum: 0, description: "Input price." })),
    output: Type.Optional(Type.Number({ minimum: 0, description: "Output price." })),
    cacheRead: Type.Optional(Type.Number({ minimum: 0, description: "Cache read price." })),
    cacheWrite: Type.Optional(Type.Number({ minimum: 0, description: "Cache write price." })),
  },
  { additionalProperties: false, description: "Token prices." },
);
/** Static type of {@link ModelCostSchema}. */
export type ModelCost = Static<typeof ModelCostSchema>;

/** One model offered by a custom provider. */
export const ModelDefinitionSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, description: "Model id sent to the provider." }),
    name: Type.String({ minLength: 1, description: "Display name." }),
    api: Type.Optional(ModelApiSchema),
    reasoning: Type.Optional(Type.Boolean({ description: "Supports reasoning/thinking." })),
    input: Type.Optional(
      Type.Array(
        Type.Union([
          Type.Literal("text"),
          Type.Literal("image"),
          Type.Literal("audio"),
          Type.Literal("video"),
          Type.Literal("document"),
        ]),
        { description: "Accepted input modalities." },
      ),
    ),
    cost: Type.Optional(ModelCostSchema),
    contextWindow: Type.Optional(Type.Integer({ minimum: 1, description: "Context window." })),
    contextTokens: Type.Optional(
      acceptedForCompat(
        Type.Integer({ minimum: 1, description: "Usable context." }),
        "no issue yet: contextWindow is used",
      ),
    ),
    maxTokens: Type.Optional(Type.Integer({ minimum: 1, description: "Max output tokens." })),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: "Extra request headers." }),
    ),
    compat: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "API compatibility flags." }),
    ),
  },
  { additionalProperties: true, description: "Model definition." },
);
/** Static type of {@link ModelDefinitionSchema}. */
export type ModelDefinition = Static<typeof ModelDefinitionSchema>;

/** `models.providers.<id>`: endpoint, credentials and catalog of one provider. */
export const ModelProviderSchema = Type.Object(
  {
    baseUrl: Type.Optional(Type.String({ description: "API base URL." })),
    apiKey: Type.Optional(
      Type.Union([Type.String(), SecretRefSchema], { description: "API key or SecretRef." }),
    ),
    auth: Type.Optional(
      acceptedForCompat(
        Type.Union(
          [
            Type.Literal("api-key"),
            Type.Literal("api_key"),
            Type.Literal("aws-sdk"),
            Type.Literal("oauth"),
            Type.Literal("token"),
          ],
          { description: "Auth mode: api-key, aws-sdk, oauth or token." },
        ),
        "no issue yet: not read; the agent's credential order picks the credential",
      ),
    ),
    api: Type.Optional(ModelApiSchema),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), SecretRefSchema]), {
        description: "Extra request headers (values may be SecretRefs).",
      }),
    ),
    authHeader: Type.Optional(
      acceptedForCompat(
        Type.Boolean({ description: "Send the key as an Authorization header." }),
        "no issue yet",
      ),
    ),
    timeoutSeconds: Type.Optional(
      acceptedForCompat(
        Type.Number({ minimum: 0, description: "Request timeout (s)." }),
        "no issue yet: provider timeouts",
      ),
    ),
    request: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Request tuning." }),
        "no issue yet: request tuning",
      ),
    ),
    models: Type.Optional(
      Type.Array(ModelDefinitionSchema, { description: "Models offered by this provider." }),
    ),
  },
  { additionalProperties: true, description: "Model provider." },
);
/** Static type of {@link ModelProviderSchema}. */
export type ModelProvider = Static<typeof ModelProviderSchema>;

/** `models`: custom/overridden providers merged with (or replacing) the built-in catalog. */
export const ModelsConfigSchema = Type.Object(
  {
    mode: Type.Optional(
      Type.Union([Type.Literal("merge"), Type.Literal("replace")], {
        description: "merge with built-in providers (default) or replace them.",
      }),
    ),
    providers: Type.Optional(
      Type.Record(Type.String(), ModelProviderSchema, { description: "Providers by id." }),
    ),
    bedrockDiscovery: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Bedrock model discovery." }),
        "no issue yet: Bedrock discovery",
      ),
    ),
    proxy: Type.Optional(
      acceptedForCompat(
        Type.String({ description: "HTTP proxy for model API calls." }),
        "no issue yet: model API proxy",
      ),
    ),
  },
  { additionalProperties: true, description: "Model providers." },
);
/** Static type of {@link ModelsConfigSchema}. */
export type ModelsConfig = Static<typeof ModelsConfigSchema>;

/** One auth profile (credentials live in the agent's auth-profiles.json). */
export const AuthProfileSchema = Type.Object(
  {
    provider: Type.String({ minLength: 1, description: "Provider id." }),
    mode: Type.Union(
      [
        Type.Literal("api_key"),
        Type.Literal("aws-sdk"),
        Type.Literal("oauth"),
        Type.Literal("token"),
      ],
      { description: "Credential kind: api_key, aws-sdk, oauth or token." },
    ),
    email: Type.Optional(Type.String({ description: "Account email." })),
    displayName: Type.Optional(Type.String({ description: "Display name." })),
  },
  { additionalProperties: false, description: "Auth profile." },
);
/** Static type of {@link AuthProfileSchema}. */
export type AuthProfile = Static<typeof AuthProfileSchema>;

/** `auth`: auth profiles, their order per provider, and failure cooldowns. */
export const AuthConfigSchema = Type.Object(
  {
    profiles: Type.Optional(
      Type.Record(Type.String(), AuthProfileSchema, {
        description: 'Profiles keyed by id (e.g. "anthropic:work").',
      }),
    ),
    order: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String()), {
        description: "Profile order per provider.",
      }),
    ),
    cooldowns: Type.Optional(
      Type.Object(
        {
          billingBackoffHours: Type.Optional(
            Type.Number({ minimum: 0, description: "Billing backoff (h)." }),
          ),
          billingBackoffHoursByProvider: Type.Optional(
            Type.Record(Type.String(), Type.Number({ minimum: 0 }), {
              description: "Billing backoff per provider (h).",
            }),
          ),
          billingMaxHours: Type.Optional(
            Type.Number({ minimum: 0, description: "Billing backoff cap (h)." }),
          ),
          failureWindowHours: Type.Optional(
            Type.Number({ minimum: 0, description: "Failure counter window (h)." }),
          ),
        },
        { additionalProperties: true, description: "Auth failure cooldowns." },
      ),
    ),
  },
  { additionalProperties: false, description: "Auth profiles and ordering." },
);
/** Static type of {@link AuthConfigSchema}. */
export type AuthConfig = Static<typeof AuthConfigSchema>;
