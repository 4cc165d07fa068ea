// The hooks shipped with Pincer, in listing order.
import { bootMdHook } from "./boot-md.js";
import { commandLoggerHook } from "./command-logger.js";
import { sessionMemoryHook } from "./session-memory.js";
import type { BundledHook } from "./types.js";

/** Every bundled hook. */
export const BUNDLED_HOOKS: readonly BundledHook[] = [
  bootMdHook,
  commandLoggerHook,
  sessionMemoryHook,
];
