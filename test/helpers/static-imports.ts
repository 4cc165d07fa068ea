// Walks the static import graph of src/ (not `import type`, which is erased, nor `import()`, which
// loads on demand): which module first imports a package at load time, and through which chain.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
// Static `import … from` / `export … from` / `import "…"`, not `import type` (erased) nor `import()`.
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^;]*?\sfrom\s+)?["']([^"']+)["']/gms;

/** The chain of modules (paths under src/) from `entry` to the first one importing `pkg` statically. */
export function staticPathTo(entry: string, pkg: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): string[] | undefined => {
    if (seen.has(file)) return undefined;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(STATIC_IMPORT)) {
      const spec = match[1];
      if (spec === pkg || spec.startsWith(`${pkg}/`)) return [...chain, relative(SRC, file)];
      if (!spec.startsWith(".")) continue;
      const target = resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
      if (!existsSync(target)) continue;
      const found = walk(target, [...chain, relative(SRC, file)]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(join(SRC, entry), []);
}
