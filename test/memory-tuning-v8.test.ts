// The daemon's memory tuning against the real V8 (the built dist, in a child process: V8 flags are
// process-wide). A workload whose survivors make V8 grow its young generation to the full 32 MiB by
// default stays at the tuning's target with it.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const tuningModule = pathToFileURL(join(root, "dist", "gateway", "memory-tuning.js")).href;

/** Allocation rounds keeping ~30,000 objects alive, yielding between rounds as the daemon does. */
const workload = (tuned: boolean) => `
import { setImmediate as tick } from "node:timers/promises";
import { getHeapSpaceStatistics } from "node:v8";
${tuned ? `const { applyMemoryTuning } = await import(${JSON.stringify(tuningModule)});\napplyMemoryTuning({ execArgv: process.execArgv });` : ""}
let keep = [];
let max = 0;
for (let round = 0; round < 300; round++) {
  for (let i = 0; i < 10000; i++) {
    keep.push({ i, s: "x" + i });
    if (keep.length > 30000) keep = [];
  }
  await tick();
  const young = getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
  max = Math.max(max, young.space_size);
}
console.log(JSON.stringify({ max }));
`;

/** The largest young generation (bytes) the workload saw, tuned or not. */
function maxYoungGeneration(tuned: boolean): number {
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", workload(tuned)], {
    encoding: "utf8",
    env: { PATH: process.env.PATH },
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout).max;
}

describe("memory tuning on the real V8", () => {
  it("the young generation stops growing at the target instead of V8's 32 MiB", async () => {
    const { YOUNG_GENERATION_TARGET_BYTES } = await import(tuningModule);
    expect(maxYoungGeneration(false)).toBeGreaterThan(2 * YOUNG_GENERATION_TARGET_BYTES);
    expect(maxYoungGeneration(true)).toBeLessThanOrEqual(2 * YOUNG_GENERATION_TARGET_BYTES);
  });
});
