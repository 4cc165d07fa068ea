// Embeddings for memory search: `memorySearch.provider` (openai, gemini, voyage, mistral — each
// through its OpenAI-compatible `/embeddings` endpoint — or `auto`: the first of those whose API key
// is found), `model` (each provider's default otherwise), `remote.baseUrl` / `remote.apiKey` /
// `remote.headers` (any OpenAI-compatible endpoint). The key: `remote.apiKey`, else
// `models.providers.<provider>.apiKey`, else the provider's environment variable. No provider set
// means no embeddings: memory is never sent anywhere unless the config asks for it.
import { readSecretInput } from "../channels/secret-input.js";
import type { ResolvedConfig } from "../config/index.js";
import type { MemorySearchConfig } from "../protocol/config/index.js";
import type { HybridSettings } from "./vectors.js";

/** A remote provider Pincer knows: its endpoint, default model and key variable. */
interface KnownProvider {
  baseUrl: string;
  model: string;
  envKey: string;
}

/** The providers `auto` tries, in order. */
export const EMBEDDING_PROVIDERS: Readonly<Record<string, KnownProvider>> = {
  openai: {
    baseUrl: "https://api.openai.com/v1",
    model: "text-embedding-3-small",
    envKey: "OPENAI_API_KEY",
  },
  gemini: {
    baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
    model: "gemini-embedding-001",
    envKey: "GEMINI_API_KEY",
  },
  voyage: { baseUrl: "https://api.voyageai.com/v1", model: "voyage-3.5", envKey: "VOYAGE_API_KEY" },
  mistral: {
    baseUrl: "https://api.mistral.ai/v1",
    model: "mistral-embed",
    envKey: "MISTRAL_API_KEY",
  },
};

/** Texts sent in one request. */
export const EMBEDDING_BATCH_SIZE = 64;
/** How long one request may take. */
export const EMBEDDING_TIMEOUT_MS = 30_000;

/** The resolved embedding side of an agent's memory search. */
export interface EmbeddingSettings {
  provider: string;
  model: string;
  baseUrl: string;
  headers: Record<string, string>;
  apiKey?: string;
  /** Why no key could be read (searches stay full-text and say so). */
  keyProblem?: string;
}

/** Turns texts into vectors; `key` names the model (a change re-embeds the index). */
export interface MemoryEmbedder {
  readonly key: string;
  /** `key` plus the credentials and headers: a warm index is replaced when any of them change. */
  readonly instanceKey: string;
  embed(texts: readonly string[]): Promise<number[][]>;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function keyFor(params: {
  provider: string;
  remote: Record<string, unknown> | undefined;
  cfg: ResolvedConfig;
  env: Record<string, string | undefined>;
}): { apiKey?: string; problem?: string } {
  const { provider, remote, cfg, env } = params;
  const sources: Array<[string, unknown]> = [
    ["memorySearch.remote.apiKey", remote?.apiKey],
    [`models.providers.${provider}.apiKey`, cfg.config.models?.providers?.[provider]?.apiKey],
  ];
  for (const [key, value] of sources) {
    if (value === undefined) continue;
    const read = readSecretInput({ key, value, env });
    if (read.problem) return { problem: read.problem };
    if (read.value) return { apiKey: read.value };
  }
  const envKey = EMBEDDING_PROVIDERS[provider]?.envKey;
  const fromEnv = envKey ? text(env[envKey]) : undefined;
  if (fromEnv) return { apiKey: fromEnv };
  return {
    problem: `no API key for embedding provider "${provider}": set memorySearch.remote.apiKey${envKey ? ` or ${envKey}` : ""}`,
  };
}

/** The embedding settings of a merged `memorySearch`, or undefined when no provider is set. */
export function resolveEmbeddingSettings(params: {
  search: MemorySearchConfig;
  cfg: ResolvedConfig;
  env: Record<string, string | undefined>;
}): EmbeddingSettings | undefined {
  const { search, cfg, env } = params;
  const remote = search.remote as Record<string, unknown> | undefined;
  let provider = text(search.provider)?.toLowerCase();
  if (!provider || provider === "none") return undefined;
  if (provider === "auto") {
    provider = Object.keys(EMBEDDING_PROVIDERS).find(
      (name) => keyFor({ provider: name, remote, cfg, env }).apiKey,
    );
    if (!provider) return undefined;
  }
  const known = EMBEDDING_PROVIDERS[provider];
  const baseUrl = text(remote?.baseUrl) ?? known?.baseUrl;
  const model = text(search.model) ?? known?.model;
  const headers: Record<string, string> = {};
  if (remote?.headers && typeof remote.headers === "object")
    for (const [name, value] of Object.entries(remote.headers))
      if (typeof value === "string") headers[name] = value;
  const base = { provider, model: model ?? "", baseUrl: baseUrl ?? "", headers };
  if (!baseUrl)
    return {
      ...base,
      keyProblem: `embedding provider "${provider}" needs memorySearch.remote.baseUrl`,
    };
  if (!model)
    return { ...base, keyProblem: `embedding provider "${provider}" needs memorySearch.model` };
  const key = keyFor({ provider, remote, cfg, env });
  return {
    ...base,
    ...(key.apiKey ? { apiKey: key.apiKey } : {}),
    ...(key.problem ? { keyProblem: key.problem } : {}),
  };
}

/** The model's identity in the stored index: a change of provider, model or endpoint re-embeds. */
export function embedderKey(settings: EmbeddingSettings): string {
  return `${settings.provider}/${settings.model}@${settings.baseUrl}`;
}

/** Unit length, so a dot product is the cosine. */
export function normalize(vector: readonly number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm > 0 ? vector.map((x) => x / norm) : vector.map(() => 0);
}

/** An embedder over the OpenAI-compatible `POST <baseUrl>/embeddings`; errors name the endpoint. */
export function createRemoteEmbedder(settings: EmbeddingSettings): MemoryEmbedder {
  const url = `${settings.baseUrl.replace(/\/+$/, "")}/embeddings`;
  const request = async (input: readonly string[]): Promise<number[][]> => {
    if (settings.keyProblem) throw new Error(settings.keyProblem);
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
          ...settings.headers,
        },
        body: JSON.stringify({ model: settings.model, input }),
        signal: AbortSignal.timeout(EMBEDDING_TIMEOUT_MS),
      });
    } catch (err) {
      throw new Error(`embeddings ${url}: ${(err as Error).message}`);
    }
    const body = (await res.json().catch(() => undefined)) as
      | { data?: Array<{ embedding?: unknown; index?: unknown }>; error?: { message?: unknown } }
      | undefined;
    if (!res.ok) {
      const why = typeof body?.error?.message === "string" ? `: ${body.error.message}` : "";
      throw new Error(`embeddings ${url}: HTTP ${res.status}${why}`);
    }
    const rows = body?.data;
    if (!Array.isArray(rows) || rows.length !== input.length)
      throw new Error(
        `embeddings ${url}: expected ${input.length} vectors, got ${Array.isArray(rows) ? rows.length : "none"}`,
      );
    const ordered = [...rows].sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0));
    return ordered.map((row, i) => {
      const vector = row.embedding;
      if (
        !Array.isArray(vector) ||
        vector.length === 0 ||
        !vector.every((x) => typeof x === "number")
      )
        throw new Error(`embeddings ${url}: vector ${i} is not a list of numbers`);
      return normalize(vector as number[]);
    });
  };
  return {
    key: embedderKey(settings),
    instanceKey: JSON.stringify([
      embedderKey(settings),
      settings.apiKey ?? null,
      settings.headers,
      settings.keyProblem ?? null,
    ]),
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += EMBEDDING_BATCH_SIZE)
        out.push(...(await request(texts.slice(i, i + EMBEDDING_BATCH_SIZE))));
      return out;
    },
  };
}

/** The index options of a memory search's settings: its embedder (when a provider is set) and the
 *  hybrid mix. */
export function embeddingIndexParams(settings: {
  embeddings?: EmbeddingSettings;
  hybrid: HybridSettings;
}): { embedder?: MemoryEmbedder; hybrid: HybridSettings } {
  return {
    ...(settings.embeddings ? { embedder: createRemoteEmbedder(settings.embeddings) } : {}),
    hybrid: settings.hybrid,
  };
}
