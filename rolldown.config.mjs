// Bundles the CLI into dist/bin/ so `pincer` starts by loading a handful of files instead of
// dozens: module resolution dominates start-up on small machines. Commands stay lazy chunks.
// Also bundles the browser WebChat into dist/ui/, which the gateway serves at `/`.
import { rmSync } from "node:fs";
import { webchatBundleOptions } from "./scripts/webchat-bundle.mjs";

// Chunk names carry content hashes: start from empty folders so stale chunks never ship.
rmSync("dist/bin", { recursive: true, force: true });
rmSync("dist/ui", { recursive: true, force: true });

export default [
  {
    input: { pincer: "dist/cli/main.js" },
    platform: "node",
    output: { dir: "dist/bin", format: "esm", chunkFileNames: "[name]-[hash].js" },
  },
  webchatBundleOptions({ outDir: "dist/ui" }),
];
