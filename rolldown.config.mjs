// Bundles the CLI into dist/bin/ so `pincer` starts by loading a handful of files instead of
// dozens: module resolution dominates start-up on small machines. Commands stay lazy chunks.
// Third-party packages stay external (imported from node_modules, where npm installs them
// anyway: visible to `npm audit`, their licence notices kept), except the embedded runtime's three
// (BUNDLED below, still installed and audited the same way): TypeBox alone is ~680 files, which
// cost the first turn ~165 ms and ~28 MB of RSS to load one by one, against ~11 ms and ~5 MB as one
// chunk; the packages they import stay external. Source maps point at
// src/; `NODE_OPTIONS=--enable-source-maps` makes a daemon's stack trace name src/... lines.
// Also bundles the browser Control UI into dist/ui/, which the gateway serves (at `/`, or under
// gateway.controlUi.basePath).
import { rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { controlUiBundleOptions } from "./scripts/control-ui-bundle.mjs";

// Chunk names carry content hashes: start from empty folders so stale chunks never ship.
rmSync("dist/bin", { recursive: true, force: true });
rmSync("dist/ui", { recursive: true, force: true });

/** Packages compiled into dist/bin (with Pincer's own code) instead of loaded from node_modules. */
const BUNDLED = ["typebox", "@mariozechner/pi-ai", "@mariozechner/pi-agent-core"];

/** True for a package name or a path inside it. */
const isInPackage = (id, name) => id === name || id.startsWith(`${name}/`);

/** True for a Node built-in or a package (a bare specifier, or a path inside one), not BUNDLED. */
function isExternal(id) {
  if (id.startsWith("node:") || builtinModules.includes(id)) return true;
  if (BUNDLED.some((name) => isInPackage(id, name))) return false;
  return !/^[./]|^[A-Za-z]:/.test(id);
}

/**
 * pi-ai imports its Bedrock provider through a variable (`importNodeOnlyProvider("./amazon-bedrock.js")`),
 * which would resolve against dist/bin once bundled: make it a literal import so it becomes a lazy
 * chunk. Fails the build when the pattern is gone (a pi-ai upgrade must be looked at).
 */
const piAiLazyProviders = {
  name: "pi-ai-lazy-providers",
  transform(code, id) {
    if (!/pi-ai[\\/]dist[\\/]providers[\\/]register-builtins\.js$/.test(id)) return null;
    const call = 'importNodeOnlyProvider("./amazon-bedrock.js")';
    if (!code.includes(call))
      throw new Error(`${id}: expected ${call} (pi-ai changed: check the bundle)`);
    // Same length (padded with a comment), so the source map stays true: `map: null` keeps it.
    const literal = 'import(/*            */"./amazon-bedrock.js")';
    return { code: code.replaceAll(call, literal), map: null };
  },
};

export default [
  {
    input: { pincer: "src/cli/main.ts" },
    platform: "node",
    resolve: { extensionAlias: { ".js": [".ts", ".js"] } },
    external: isExternal,
    plugins: [piAiLazyProviders],
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
