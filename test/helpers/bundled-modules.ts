// What a loaded module URL holds, for the module-trace tests: a file under node_modules is itself;
// a chunk of the dist/bin bundle holds the modules rolldown compiled into it, named by the
// `// node_modules/<package>/...` and `// src/...` comments it writes above each of them.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Paths (`node_modules/<package>/...`, `src/...`) of the modules the file at `url` is or holds. */
export function modulesIn(url: string): string[] {
  const installed = /\/(node_modules\/.*)$/.exec(url);
  if (installed) return [installed[1] as string];
  if (!url.startsWith("file:") || !url.includes("/dist/bin/")) return [];
  const code = readFileSync(fileURLToPath(url), "utf8");
  return [...code.matchAll(/^\/\/ ((?:node_modules|src)\/\S+)$/gm)].map((m) => m[1] as string);
}

/** Names of the packages (bundled or installed) the file at `url` is or holds. */
export function packagesIn(url: string): string[] {
  const names = modulesIn(url).flatMap((path) => {
    const name = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
    return name ? [name] : [];
  });
  return [...new Set(names)];
}
