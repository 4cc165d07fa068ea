// The json5 package, loaded on first use: the common config load never needs it (the one-pass
// reader handles it), and its Unicode tables cost start-up time on every CLI run.
import { createRequire } from "node:module";

/** The parts of json5 the config area uses. */
export interface Json5Module {
  parse<T = unknown>(text: string): T;
}

/** The json5 module; Node's require cache makes every call after the first a lookup. */
export function json5(): Json5Module {
  return createRequire(import.meta.url)("json5") as Json5Module;
}
