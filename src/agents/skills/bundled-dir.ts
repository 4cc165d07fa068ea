// Where the bundled skills are: `OPENCLAW_BUNDLED_SKILLS_DIR`, else `<package root>/skills`.
// Callers compute it once (the CLI, later the gateway) and pass it to discovery.
import { homedir } from "node:os";
import { join } from "node:path";
import { expandHome } from "../../config/paths.js";
import { findPackageRoot } from "../../lib/package-root.js";

/** Inputs of {@link resolveBundledSkillsDir}. */
export interface BundledSkillsDirParams {
  /** `import.meta.url` of the calling module: the package root is searched upward from it. */
  moduleUrl: string;
  env: Record<string, string | undefined>;
}

/**
 * The bundled skills folder: the env override, else `<package root>/skills` (discovery reports it
 * if that folder is missing); undefined only when no "pincer" package root is found.
 */
export function resolveBundledSkillsDir(params: BundledSkillsDirParams): string | undefined {
  const override = params.env.OPENCLAW_BUNDLED_SKILLS_DIR?.trim();
  if (override) return expandHome(override, params.env.HOME?.trim() || homedir());
  const root = findPackageRoot(params.moduleUrl);
  return root ? join(root, "skills") : undefined;
}
