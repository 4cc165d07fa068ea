// Finds Pincer's own package folder from any module URL, so files shipped beside dist/ (the bundled
// skills/) are found whether the code runs from src/ (tests), dist/ (library) or dist/bin/ (CLI).
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The `name` in package.json that marks Pincer's package root. */
const PACKAGE_NAME = "pincer";

/** The package name in `dir/package.json`, or undefined when there is none or it is unreadable. */
function packageNameIn(dir: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const name = (parsed as { name?: unknown } | null)?.name;
    return typeof name === "string" ? name : undefined;
  } catch {
    // Missing, unreadable or not JSON: converted to "not our package.json"; the walk goes on.
    return undefined;
  }
}

/**
 * Walks up from a module URL (`import.meta.url`) or path to the nearest folder whose package.json
 * is named "pincer"; undefined when there is none (e.g. a foreign bundle).
 */
export function findPackageRoot(fromUrl: string): string | undefined {
  let dir = resolve(fromUrl.startsWith("file:") ? fileURLToPath(fromUrl) : fromUrl);
  for (;;) {
    if (packageNameIn(dir) === PACKAGE_NAME) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
