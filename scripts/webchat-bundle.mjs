// Rolldown options of the WebChat browser bundle: src/ui/webchat/main.ts becomes <outDir>/app.js,
// and the page's static files (index.html, app.css, favicon.svg) are copied beside it. Used by
// rolldown.config.mjs (npm run build → dist/ui/) and by the WebChat tests (a temp folder).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const SOURCE_DIR = new URL("../src/ui/webchat/", import.meta.url);
const STATIC_FILES = ["index.html", "app.css", "favicon.svg"];

/** Copies the static files into the bundle's output as assets. */
function staticFiles() {
  return {
    name: "webchat-static-files",
    generateBundle() {
      for (const fileName of STATIC_FILES) {
        this.emitFile({
          type: "asset",
          fileName,
          source: readFileSync(new URL(fileName, SOURCE_DIR)),
        });
      }
    },
  };
}

/** Rolldown build options writing the WebChat into `outDir`. */
export function webchatBundleOptions({ outDir }) {
  return {
    input: { app: fileURLToPath(new URL("main.ts", SOURCE_DIR)) },
    platform: "browser",
    resolve: { extensionAlias: { ".js": [".ts", ".js"] } },
    plugins: [staticFiles()],
    output: { dir: outDir, format: "esm", entryFileNames: "[name].js", minify: true },
  };
}
