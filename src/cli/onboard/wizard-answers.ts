// What the onboard/configure wizard collects before it writes anything: the model and its key, the
// workspace, the gateway listener and a channel. Both the prompts and the `--non-interactive` flags
// produce these answers; one writer (wizard-apply.ts) turns them into config edits and files.
import { randomBytes } from "node:crypto";

/** The sections `pincer configure --section` can re-run (OpenClaw's names). */
export const WIZARD_SECTIONS = ["model", "workspace", "gateway", "channels"] as const;
/** One wizard section. */
export type WizardSection = (typeof WIZARD_SECTIONS)[number];

/** How a provider key is stored: inline in the agent's auth-profiles.json, or as an env reference. */
export type KeyAnswer =
  | { kind: "inline"; secret: string; type: "api_key" | "token" }
  | { kind: "env"; envVar: string }
  | { kind: "none" };

/** Wire protocol of a custom provider (`--custom-compatibility`) and the `api` value it maps to. */
export const CUSTOM_COMPATIBILITY: Record<string, string> = {
  openai: "openai-completions",
  "openai-responses": "openai-responses",
  anthropic: "anthropic-messages",
};

/** A model of pi-ai's catalog, or a custom OpenAI/Anthropic-compatible endpoint (Ollama included). */
export type ModelAnswer =
  | { kind: "builtin"; provider: string; modelId: string; key: KeyAnswer; profileName?: string }
  | {
      kind: "custom";
      providerId: string;
      baseUrl: string;
      modelId: string;
      /** `api` of `models.providers.<id>` (openai-completions, anthropic-messages, ollama, …). */
      api: string;
      key: KeyAnswer;
    };

/** The gateway listener: `gateway.port`, `gateway.bind`, `gateway.auth`. An undefined secret keeps
 * the configured one as it is (e.g. a SecretRef, which the wizard never replaces by plaintext). */
export interface GatewayAnswer {
  port: number;
  bind: "loopback" | "lan" | "tailnet";
  auth: { mode: "token"; token?: string } | { mode: "password"; password?: string };
}

/** A Telegram bot account: `channels.telegram[.accounts.<account>].botToken`. */
export interface ChannelAnswer {
  channel: "telegram";
  account: string;
  token: string;
}

/** Everything one wizard run decided; an absent section is left as it is in the config. */
export interface WizardAnswers {
  model?: ModelAnswer;
  /** Workspace directory as stored (`~/…` kept as typed, else absolute). */
  workspace?: string;
  gateway?: GatewayAnswer;
  channel?: ChannelAnswer;
}

/** A built-in provider reachable with an API key, under OpenClaw's `--auth-choice` name. */
export interface AuthChoice {
  provider: string;
  /** The per-provider key flag OpenClaw accepts (`--openai-api-key`), as a commander option key. */
  keyOption: string;
  /** Env var read when the key flag is absent (and stored as a reference in `ref` mode). */
  envVar: string;
  /** Model used when neither `--model` nor the config chooses one of this provider. */
  defaultModel: string;
}

/** `--auth-choice` values for built-in providers with an API key (OpenClaw's names). */
export const AUTH_CHOICES: Record<string, AuthChoice> = {
  apiKey: {
    provider: "anthropic",
    keyOption: "anthropicApiKey",
    envVar: "ANTHROPIC_API_KEY",
    defaultModel: "claude-opus-4-6",
  },
  "openai-api-key": {
    provider: "openai",
    keyOption: "openaiApiKey",
    envVar: "OPENAI_API_KEY",
    defaultModel: "gpt-5.5",
  },
  "openrouter-api-key": {
    provider: "openrouter",
    keyOption: "openrouterApiKey",
    envVar: "OPENROUTER_API_KEY",
    defaultModel: "auto",
  },
  "gemini-api-key": {
    provider: "google",
    keyOption: "geminiApiKey",
    envVar: "GEMINI_API_KEY",
    defaultModel: "gemini-3-pro-preview",
  },
  "xai-api-key": {
    provider: "xai",
    keyOption: "xaiApiKey",
    envVar: "XAI_API_KEY",
    defaultModel: "grok-4",
  },
  "zai-api-key": {
    provider: "zai",
    keyOption: "zaiApiKey",
    envVar: "ZAI_API_KEY",
    defaultModel: "glm-5.1",
  },
  "moonshot-api-key": {
    provider: "moonshotai",
    keyOption: "moonshotApiKey",
    envVar: "MOONSHOT_API_KEY",
    defaultModel: "kimi-k2.5",
  },
  "ai-gateway-api-key": {
    provider: "vercel-ai-gateway",
    keyOption: "aiGatewayApiKey",
    envVar: "AI_GATEWAY_API_KEY",
    defaultModel: "anthropic/claude-opus-4.6",
  },
  "mistral-api-key": {
    provider: "mistral",
    keyOption: "mistralApiKey",
    envVar: "MISTRAL_API_KEY",
    defaultModel: "mistral-large-latest",
  },
};

/** The other `--auth-choice` values Pincer supports: custom endpoints, Ollama, a static token, skip. */
export const OTHER_AUTH_CHOICES = ["custom-api-key", "ollama", "token", "skip"] as const;

/** Env var OpenClaw reads for a custom provider's key. */
export const CUSTOM_API_KEY_ENV = "CUSTOM_API_KEY";
/** Default gateway port (OpenClaw's). */
export const DEFAULT_GATEWAY_PORT = 18789;
/** Default Ollama address (OpenClaw's `--custom-base-url` default for `--auth-choice ollama`). */
export const DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434";

/** A fresh random gateway token: 32 bytes, base64url (like the state dir's generated one). */
export function generateGatewayToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Parses a TCP port typed by a person; undefined when it is not an integer in 1..65535. */
export function parsePort(raw: string): number | undefined {
  const trimmed = raw.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const port = Number(trimmed);
  return port >= 1 && port <= 65_535 ? port : undefined;
}

/** Provider ids as OpenClaw writes them under `models.providers` (letters, digits, `-`, `_`). */
export const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
