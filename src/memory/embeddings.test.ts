// Embeddings against a fake OpenAI-compatible `/embeddings` server on port 0: settings (provider,
// model, endpoint, key order, auto), the client (batches, auth, normalized and ordered vectors,
// errors naming the endpoint), and a memory index mixing vector and text scores, persisting its
// vectors, re-embedding on a model change and falling back to text (and backing off) on failure.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { resolveRoster } from "../config/resolve.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import { DEFAULT_CHUNKING } from "./chunk.js";
import {
  createRemoteEmbedder,
  EMBEDDING_BATCH_SIZE,
  type EmbeddingSettings,
  resolveEmbeddingSettings,
} from "./embeddings.js";
import { MemoryIndex, type MemoryIndexParams } from "./memory-index.js";
import { memoryStorePath } from "./store.js";
import { DEFAULT_HYBRID } from "./vectors.js";

/** Words of the same meaning share a dimension, so "automobile" finds "car" where BM25 cannot. */
const CONCEPTS = [
  ["car", "automobile", "truck", "vehicle"],
  ["banana", "apple", "fruit"],
  ["meeting", "standup", "call"],
];

function conceptVector(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return [...CONCEPTS.map((group) => words.filter((w) => group.includes(w)).length), 0.01];
}

interface Fake {
  url: string;
  requests: Array<{ headers: IncomingHttpHeaders; body: { model: string; input: string[] } }>;
  status: number;
}

let server: Server | undefined;
let fake: Fake;
beforeEach(async () => {
  fake = { url: "", requests: [], status: 200 };
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => {
      text += c;
    });
    req.on("end", () => {
      const body = JSON.parse(text) as Fake["requests"][number]["body"];
      fake.requests.push({ headers: req.headers, body });
      res.setHeader("content-type", "application/json");
      res.statusCode = fake.status;
      if (fake.status !== 200) {
        res.end(JSON.stringify({ error: { message: "quota exceeded" } }));
        return;
      }
      // Answered in reverse order, with `index`: the client must put them back in order.
      const data = body.input.map((input, index) => ({ index, embedding: conceptVector(input) }));
      res.end(JSON.stringify({ data: data.reverse() }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterEach(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

function settings(extra: Partial<EmbeddingSettings> = {}): EmbeddingSettings {
  return {
    provider: "custom",
    model: "concepts-1",
    baseUrl: fake.url,
    headers: {},
    apiKey: "ek-1",
    ...extra,
  };
}

function workspace(files: Record<string, string>): string {
  const dir = makeTempDir("pincer-memory-vec-");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

function index(dir: string, extra: Partial<MemoryIndexParams> = {}): MemoryIndex {
  return new MemoryIndex({
    agentId: "main",
    workspaceDir: dir,
    extraPaths: [],
    chunking: DEFAULT_CHUNKING,
    embedder: createRemoteEmbedder(settings()),
    hybrid: DEFAULT_HYBRID,
    ...extra,
  });
}

const ALL = { maxResults: 10, minScore: 0 };

describe("embedding settings", () => {
  const resolve = (
    search: Record<string, unknown>,
    env: Record<string, string> = {},
    config: OpenClawConfig = {},
  ) => resolveEmbeddingSettings({ search, cfg: resolveRoster(config), env });

  it("is off without a provider; a known provider brings its endpoint, model and key variable", () => {
    expect(resolve({})).toBeUndefined();
    expect(resolve({ provider: "none" })).toBeUndefined();
    expect(resolve({ provider: "openai" }, { OPENAI_API_KEY: "sk-env" })).toEqual({
      provider: "openai",
      model: "text-embedding-3-small",
      baseUrl: "https://api.openai.com/v1",
      headers: {},
      apiKey: "sk-env",
    });
    expect(resolve({ provider: "mistral" })?.keyProblem).toBe(
      'no API key for embedding provider "mistral": set memorySearch.remote.apiKey or MISTRAL_API_KEY',
    );
  });

  it("takes the key from remote.apiKey, then models.providers, then the environment", () => {
    const config = { models: { providers: { openai: { apiKey: "sk-config" } } } } as OpenClawConfig;
    const env = { OPENAI_API_KEY: "sk-env", MY_KEY: "sk-ref" };
    expect(
      resolve(
        { provider: "openai", remote: { apiKey: { source: "env", id: "MY_KEY" } } },
        env,
        config,
      )?.apiKey,
    ).toBe("sk-ref");
    expect(resolve({ provider: "openai" }, env, config)?.apiKey).toBe("sk-config");
    expect(
      resolve({ provider: "openai", remote: { apiKey: { source: "env", id: "GONE" } } }, env)
        ?.keyProblem,
    ).toBe("memorySearch.remote.apiKey: environment variable GONE is not set");
  });

  it("auto picks the first provider with a key; another name needs remote.baseUrl and a model", () => {
    expect(resolve({ provider: "auto" }, { VOYAGE_API_KEY: "v" })).toMatchObject({
      provider: "voyage",
      model: "voyage-3.5",
    });
    expect(resolve({ provider: "auto" })).toBeUndefined();
    expect(resolve({ provider: "local-llm" })?.keyProblem).toBe(
      'embedding provider "local-llm" needs memorySearch.remote.baseUrl',
    );
    expect(
      resolve({
        provider: "local-llm",
        model: "m",
        remote: { baseUrl: "http://h/v1", apiKey: "k", headers: { "x-a": "1" } },
      }),
    ).toEqual({
      provider: "local-llm",
      model: "m",
      baseUrl: "http://h/v1",
      headers: { "x-a": "1" },
      apiKey: "k",
    });
  });
});

describe("remote embedder", () => {
  it("posts batches with the key, and returns unit vectors in input order", async () => {
    const embedder = createRemoteEmbedder(settings({ headers: { "x-team": "a" } }));
    const texts = Array.from({ length: EMBEDDING_BATCH_SIZE + 6 }, (_, i) =>
      i === 1 ? "banana" : "car",
    );
    const vectors = await embedder.embed(texts);
    expect(fake.requests.map((r) => r.body.input.length)).toEqual([EMBEDDING_BATCH_SIZE, 6]);
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer ek-1");
    expect(fake.requests[0]?.headers["x-team"]).toBe("a");
    expect(fake.requests[0]?.body.model).toBe("concepts-1");
    expect(vectors).toHaveLength(texts.length);
    expect(vectors[1]?.[1]).toBeGreaterThan(0.99);
    expect(vectors[0]?.[0]).toBeGreaterThan(0.99);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 6);
  });

  it("names the endpoint and the reason when it fails; a key problem sends nothing", async () => {
    fake.status = 429;
    await expect(createRemoteEmbedder(settings()).embed(["x"])).rejects.toThrow(
      `embeddings ${fake.url}/embeddings: HTTP 429: quota exceeded`,
    );
    const before = fake.requests.length;
    await expect(
      createRemoteEmbedder(settings({ keyProblem: "no key" })).embed(["x"]),
    ).rejects.toThrow("no key");
    expect(fake.requests.length).toBe(before);
  });
});

describe("MemoryIndex with embeddings", () => {
  it("finds by meaning what BM25 cannot, mixes both scores, and keeps vectors in the store", async () => {
    const dir = workspace({
      "MEMORY.md": "# Garage\nThe car needs new tyres.\n",
      "memory/2026-01-02.md": "# Shopping\nBuy banana and apple.\n",
    });
    const storePath = memoryStorePath(join(dir, ".state"), "main");
    const first = index(dir, { storePath });
    const hits = await first.search("automobile", ALL);
    expect(first.lastSearchMode()).toEqual({ mode: "hybrid" });
    expect(hits[0]).toMatchObject({ path: "MEMORY.md", source: "memory" });
    // Vector 1.0 × 0.7, no text match: 0.7.
    expect(hits[0]?.score).toBeCloseTo(0.7, 2);
    expect(hits.find((h) => h.path === "memory/2026-01-02.md")?.score ?? 0).toBeLessThan(0.01);
    // A word match adds the text side: "banana" scores vector and BM25.
    const fruit = await first.search("banana", ALL);
    expect(fruit[0]?.path).toBe("memory/2026-01-02.md");
    expect(fruit[0]?.score).toBeGreaterThan(0.7);
    expect((await first.sync()).vectors).toBe(2);

    const stored = JSON.parse(readFileSync(storePath, "utf8"));
    expect(stored.embedder).toBe(`custom/concepts-1@${fake.url}`);
    expect(stored.files[0].chunks[0].embedding).toHaveLength(4);
    // A new index starts from the store: only the query is embedded.
    const requests = fake.requests.length;
    const second = index(dir, { storePath });
    expect((await second.search("vehicle", ALL))[0]?.path).toBe("MEMORY.md");
    expect(fake.requests.length - requests).toBe(1);
    expect(fake.requests.at(-1)?.body.input).toEqual(["vehicle"]);

    // Another model: the stored vectors are stale, every chunk is embedded again.
    const other = index(dir, {
      storePath,
      embedder: createRemoteEmbedder(settings({ model: "concepts-2" })),
    });
    expect((await other.sync()).notes).toContain("rebuilt the index: its settings changed");
    expect(fake.requests.at(-1)?.body).toMatchObject({
      model: "concepts-2",
      input: expect.arrayContaining([expect.stringContaining("car")]),
    });
  });

  it("with hybrid off ranks by vectors alone", async () => {
    const dir = workspace({ "MEMORY.md": "# A\nstandup notes\n\n# B\nbanana bread\n" });
    const vec = index(dir, { hybrid: { ...DEFAULT_HYBRID, enabled: false } });
    const hits = await vec.search("call", ALL);
    expect(vec.lastSearchMode().mode).toBe("vector");
    expect(hits[0]?.snippet).toContain("standup");
    expect(hits[0]?.score).toBeCloseTo(1, 2);
  });

  it("falls back to full-text while the model fails, says why, and leaves it alone for a minute", async () => {
    const dir = workspace({ "MEMORY.md": "# Garage\nThe car needs new tyres.\n" });
    let now = 1_000_000;
    fake.status = 500;
    const idx = index(dir, { now: () => now });
    const report = await idx.sync();
    expect(report.vectors).toBe(0);
    expect(report.notes.join("\n")).toMatch(
      /embeddings failed, search stays full-text until they work: .*HTTP 500/,
    );
    const hits = await idx.search("car", ALL);
    expect(hits[0]?.path).toBe("MEMORY.md");
    expect(idx.lastSearchMode()).toMatchObject({ mode: "text" });
    expect(fake.requests).toHaveLength(1);
    fake.status = 200;
    now += 30_000;
    await idx.search("car", ALL);
    expect(fake.requests).toHaveLength(1);
    now += 31_000;
    await idx.search("automobile", ALL);
    expect(idx.lastSearchMode()).toEqual({ mode: "hybrid" });
    expect(fake.requests.length).toBe(3);
  });
});
