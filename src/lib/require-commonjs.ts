// CommonJS packages (ws, commander) loaded with require() instead of `import`: Node 20's ESM loader
// runs a lexer over every CommonJS file it imports to find its export names (for ws about 60 ms of
// CPU at start-up, more than loading ws itself); require() does not. It returns the same instance an
// `import` of the package would (both go through the CommonJS module cache).
import { createRequire } from "node:module";

const requireFromHere = createRequire(import.meta.url);

/** `require(specifier)` for a CommonJS package, typed by the caller (`typeof import("pkg")`). */
export function requireCommonJs<T>(specifier: string): T {
  return requireFromHere(specifier) as T;
}
