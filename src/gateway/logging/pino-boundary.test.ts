// pino is imported by the daemon logger only, through a dynamic import (on `flush()`, after the
// gateway listens), and that module only through a dynamic import (by `pincer gateway run`): the
// CLI's entry (`pincer --help`), an in-process gateway, the silent logger and the `logs.tail` ring
// never load it, nor does a daemon before it listens. Checked on the static import graph.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// Static `import … from` / `export … from` / `import "…"`, not `import type` (erased) nor `import()`.
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^;]*?\sfrom\s+)?["']([^"']+)["']/gms;

/** The chain of modules from `entry` to the first one importing `pkg` statically, if any. */
function staticPathTo(entry: string, pkg: string): string[] | undefined {
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

describe("pino stays behind `gateway run`", () => {
  it("is seen by the check where a module imports it statically", () => {
    expect(staticPathTo("gateway/logging/daemon-logger.test.ts", "pino")).toEqual([
      "gateway/logging/daemon-logger.test.ts",
    ]);
  });

  it.each([
    "cli/main.ts",
    "gateway/index.ts",
    "gateway/server.ts",
    "lib/logger.ts",
    "gateway/logging/log-ring.ts",
    "gateway/logging/daemon-logger.ts",
    "cli/gateway/run.ts",
  ])("is not loaded by %s", (entry) => {
    expect(staticPathTo(entry, "pino")).toBeUndefined();
  });
});
