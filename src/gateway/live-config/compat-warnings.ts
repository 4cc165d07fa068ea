// Gateway start (and every applied reload) logs one warning per config key the schema accepts for
// OpenClaw compatibility but Pincer ignores, naming its path, so nothing configured is silently dropped.
import { compatKeyMessage, findCompatKeys } from "../../config/compat-keys.js";
import type { Logger } from "../../lib/logger.js";

/** Returns a function that logs the compat keys a config uses; after a reload only newly used ones. */
export function createCompatKeyWarner(logger: Logger): (config: unknown) => void {
  let warned = new Set<string>();
  return (config) => {
    const current = new Set<string>();
    for (const use of findCompatKeys(config)) {
      current.add(use.path);
      if (warned.has(use.path)) continue;
      logger.warn({ path: use.path }, `config: ${use.path}: ${compatKeyMessage(use)}`);
    }
    warned = current;
  };
}
