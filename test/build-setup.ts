// Vitest global setup of the test/** project: tests there spawn the built CLI
// (dist/bin/pincer.js) and import dist/, so dist is rebuilt first whenever any build input is
// newer than the build's outputs; a fresh dist costs one directory walk.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { browserSkipNotice, findChromium } from "./helpers/chromium.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const INPUT_FILES = [
  "package.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "rolldown.config.mjs",
  "scripts/bundle.mjs",
  "scripts/control-ui-bundle.mjs",
];
const OUTPUT_FILES = ["dist/index.js", "dist/bin/pincer.js", "dist/ui/app.js"];

/** Newest modification time (ms) of the files under `dir`, test files excluded. */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestUnder(path));
    else if (!entry.name.endsWith(".test.ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Why dist must be rebuilt, or undefined when every output is newer than every input. */
export function staleReason(root: string): string | undefined {
  const missing = OUTPUT_FILES.find((file) => !existsSync(join(root, file)));
  if (missing) return `${missing} is missing`;
  const built = Math.min(...OUTPUT_FILES.map((file) => statSync(join(root, file)).mtimeMs));
  const inputs = Math.max(
    newestUnder(join(root, "src")),
    ...INPUT_FILES.map((file) => statSync(join(root, file)).mtimeMs),
  );
  return inputs > built ? "sources changed since the last build" : undefined;
}

/**
 * Runs `npm run build` when dist is stale (a failed build fails the run). The returned teardown
 * repeats the browser tests' skip notice after the summary, where it is seen.
 */
export default function setup(): () => void {
  const teardown = () => {
    const skipped = browserSkipNotice(findChromium());
    if (skipped) console.warn(`\n${skipped}\n`);
  };
  const reason = staleReason(ROOT);
  if (!reason) return teardown;
  console.log(`building dist/ before the tests (${reason}) …`);
  const result = spawnSync("npm", ["run", "--silent", "build"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
  return teardown;
}
