// Rolldown options of the Control UI browser bundle: src/ui/control/main.ts becomes <outDir>/app.js
// (Lit bundled in), index.html and favicon.svg are copied beside it, and app.css is the shell's
// app.css followed by every src/ui/control/pages/*.css (sorted by name). Used by rolldown.config.mjs
// (npm run build → dist/ui/) and by the Control UI tests (a temp folder).
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const SOURCE_DIR = new URL("../src/ui/control/", import.meta.url);
const PAGES_DIR = new URL("pages/", SOURCE_DIR);
const STATIC_FILES = ["index.html", "favicon.svg"];

/** app.css, then each page's own stylesheet. */
export function controlUiStylesheet() {
  const pages = readdirSync(PAGES_DIR)
    .filter((name) => name.endsWith(".css"))
    .sort();
  const parts = [readFileSync(new URL("app.css", SOURCE_DIR), "utf8")];
  for (const name of pages) {
    parts.push(`/* pages/${name} */\n${readFileSync(new URL(name, PAGES_DIR), "utf8")}`);
  }
  return parts.join("\n");
}

/** Copies the static files and writes the concatenated stylesheet as assets. */
function staticFiles() {
  return {
    name: "control-ui-static-files",
    generateBundle() {
      for (const fileName of STATIC_FILES) {
        this.emitFile({
          type: "asset",
          fileName,
          source: readFileSync(new URL(fileName, SOURCE_DIR)),
        });
      }
      this.emitFile({ type: "asset", fileName: "app.css", source: controlUiStylesheet() });
    },
  };
}

/** Rolldown build options writing the Control UI into `outDir`. */
export function controlUiBundleOptions({ outDir }) {
  return {
    input: { app: fileURLToPath(new URL("main.ts", SOURCE_DIR)) },
    platform: "browser",
    resolve: { extensionAlias: { ".js": [".ts", ".js"] } },
    // The shared client loads `ws` only when no WebSocket is given; the browser always gives one.
    external: ["ws"],
    plugins: [staticFiles()],
    output: {
      dir: outDir,
      format: "esm",
      entryFileNames: "[name].js",
      minify: true,
      // One file: the page loads app.js only (no chunk of the unused `ws` import path).
      codeSplitting: false,
    },
  };
}
