// Bundles the CLI into dist/bin/ so `pincer` starts by loading a handful of files instead of
// dozens: module resolution dominates start-up on small machines. Commands stay lazy chunks.
import { rmSync } from "node:fs";

// Chunk names carry content hashes: start from an empty folder so stale chunks never ship.
rmSync("dist/bin", { recursive: true, force: true });

export default {
  input: { pincer: "dist/cli/main.js" },
  platform: "node",
  output: { dir: "dist/bin", format: "esm", chunkFileNames: "[name]-[hash].js" },
};
