// memory_search at 1,000 memory files (the community target: p95 ≤ 150 ms warm): a generated
// workspace of daily notes, the first search (index built from the files), the first search of a
// fresh process from the stored index, and the p95 of warm searches (each one stats every file).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { DEFAULT_CHUNKING, MemoryIndex, memoryStorePath } from "../dist/memory/index.js";
import { fmt } from "./measure.mjs";

const FILES = 1_000;
const SEARCHES = 200;
const WORDS = (
  "meeting dentist flight hotel garden budget invoice recipe curry tea coffee train lima madrid " +
  "project deadline review birthday gift doctor school homework piano guitar runbook deploy " +
  "server backup password router printer insurance rent lease car repair garage code dog walk " +
  "mail answer call plan trip museum book film series concert ticket weather rain sun river"
).split(" ");

/** A deterministic pseudo-random word stream (no Math.random: the same corpus every run). */
function words(seed, count) {
  let x = seed * 2_654_435_761;
  const out = [];
  for (let i = 0; i < count; i++) {
    x = (x * 1_103_515_245 + 12_345) >>> 0;
    out.push(WORDS[x % WORDS.length]);
  }
  return out.join(" ");
}

/** 1,000 daily notes of ~1.2 KB, three headed sections each, plus MEMORY.md. */
function generate(workspace) {
  mkdirSync(join(workspace, "memory"), { recursive: true });
  writeFileSync(join(workspace, "MEMORY.md"), `# Long-term\n${words(0, 120)}\n`);
  for (let i = 1; i < FILES; i++) {
    const sections = [1, 2, 3].map((s) => `## Part ${s}\n${words(i * 7 + s, 60)}\n`);
    writeFileSync(
      join(workspace, "memory", `day-${String(i).padStart(4, "0")}.md`),
      `# Day ${i}\n${sections.join("\n")}`,
    );
  }
}

function p95(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))];
}

/** The bench rows. */
export async function memoryRows() {
  const root = mkdtempSync(join(tmpdir(), "pincer-bench-memory-"));
  try {
    const workspace = join(root, "workspace");
    generate(workspace);
    const params = {
      agentId: "main",
      workspaceDir: workspace,
      extraPaths: [],
      chunking: DEFAULT_CHUNKING,
      storePath: memoryStorePath(join(root, "state"), "main"),
    };
    const options = { maxResults: 6, minScore: 0 };
    const cold = new MemoryIndex(params);
    let start = performance.now();
    const first = await cold.search("garage code", options);
    const coldMs = performance.now() - start;
    const fresh = new MemoryIndex(params);
    start = performance.now();
    await fresh.search("garage code", options);
    const loadedMs = performance.now() - start;
    const times = [];
    for (let i = 0; i < SEARCHES; i++) {
      const query = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]}`;
      start = performance.now();
      await fresh.search(query, options);
      times.push(performance.now() - start);
    }
    const sync = fresh.lastSync();
    if (first.length === 0 || sync?.files !== FILES)
      throw new Error("memory bench: corpus not indexed");
    const n = fmt(FILES);
    return [
      {
        name: `memory_search p95, ${n} files (warm)`,
        result: `${p95(times).toFixed(1)} ms`,
        target: "≤ 150 ms",
      },
      {
        name: `memory_search first call, ${n} files (index built, ${fmt(sync.chunks)} chunks)`,
        result: `${coldMs.toFixed(0)} ms`,
      },
      {
        name: `memory_search first call, ${n} files (stored index loaded)`,
        result: `${loadedMs.toFixed(0)} ms`,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
