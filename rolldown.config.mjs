// Bundles the CLI into dist/bin/ so `pincer` starts by loading a handful of files instead of
// dozens: module resolution dominates start-up on small machines. Commands stay lazy chunks.
// Third-party packages stay external (imported from node_modules, where npm installs them
// anyway): one copy, their licence notices kept, visible to `npm audit`. Source maps point at
// src/; `NODE_OPTIONS=--enable-source-maps` makes a daemon's stack trace name src/... lines.
// Also bundles the browser Control UI into dist/ui/, which the gateway serves (at `/`, or under
// gateway.controlUi.basePath).
import { readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { controlUiBundleOptions } from "./scripts/control-ui-bundle.mjs";

// Chunk names carry content hashes: start from empty folders so stale chunks never ship.
rmSync("dist/bin", { recursive: true, force: true });
rmSync("dist/ui", { recursive: true, force: true });

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const packages = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies });

/** True for an import of a Node built-in or an installed package (or a path inside one). */
function isExternal(id) {
  if (id.startsWith("node:") || builtinModules.includes(id)) return true;
  return packages.some((name) => id === name || id.startsWith(`${name}/`));
}

export default [
  {
    input: { pincer: "src/cli/main.ts" },
    platform: "node",
    resolve: { extensionAlias: { ".js": [".ts", ".js"] } },
    external: isExternal,
    logLevel: "warn",
    output: {
      dir: "dist/bin",
      format: "esm",
      chunkFileNames: "[name]-[hash].js",
      sourcemap: true,
      // Mappings only: stack traces need no source text, and Node parses every map at load.
      sourcemapExcludeSources: true,
    },
  },
  controlUiBundleOptions({ outDir: "dist/ui" }),
];
