// Whether a discovered hook runs: switched off in config (`hooks.internal.entries.<name>.enabled:
// false`), not for this OS, or missing a requirement (binaries on PATH, env vars — the hook entry's
// own `env` counts — or truthy config paths). Hooks are on unless switched off, as OpenClaw's.
import { type BinaryLookup, hasBinary } from "../agents/skills/gating.js";
import { getConfigValue } from "../config/config-path.js";
import type { InternalHooksConfig } from "../protocol/config/index.js";
import type { HookMetadata, HookStatus } from "./types.js";

/** Config paths OpenClaw treats as set although no key holds them (`workspace.dir`: always one). */
const DEFAULT_TRUE_PATHS = new Set(["workspace.dir"]);

/** What an eligibility decision looks at. */
export interface HookEligibilityInput {
  hook: Pick<HookMetadata, "name" | "os" | "always" | "requires">;
  /** The whole config (for `requires.config` paths). */
  config: unknown;
  internal: InternalHooksConfig | undefined;
  env: Record<string, string | undefined>;
  platform: string;
  binaries: BinaryLookup;
}

/** The verdict: ready, or disabled/blocked with the reason in words. */
export interface HookEligibility {
  status: Extract<HookStatus, "ready" | "disabled" | "blocked">;
  reason?: string;
}

/** The entry of `hooks.internal.entries` for a hook, if any. */
export function hookEntry(
  internal: InternalHooksConfig | undefined,
  name: string,
): { enabled?: boolean; env?: Record<string, string>; [key: string]: unknown } | undefined {
  return internal?.entries?.[name];
}

/** Decides whether a hook may run (config switch, then os, then `always`, then requirements). */
export function evaluateHookEligibility(input: HookEligibilityInput): HookEligibility {
  const { hook } = input;
  const entry = hookEntry(input.internal, hook.name);
  if (entry?.enabled === false) {
    return {
      status: "disabled",
      reason: `disabled in config (hooks.internal.entries.${hook.name}.enabled)`,
    };
  }
  if (hook.os.length && !hook.os.includes(input.platform)) {
    return { status: "blocked", reason: `os ${input.platform} not in [${hook.os.join(", ")}]` };
  }
  if (hook.always) return { status: "ready" };
  const reasons: string[] = [];
  const bins = hook.requires.bins.filter((bin) => !hasBinary(bin, input.binaries));
  if (bins.length) reasons.push(`missing binaries: ${bins.join(", ")}`);
  const any = hook.requires.anyBins;
  if (any.length && !any.some((bin) => hasBinary(bin, input.binaries))) {
    reasons.push(`missing binary: one of ${any.join(", ")}`);
  }
  const env = hook.requires.env.filter(
    (name) => !input.env[name]?.trim() && !entry?.env?.[name]?.trim(),
  );
  if (env.length) reasons.push(`missing env: ${env.join(", ")}`);
  const unset = hook.requires.config.filter((path) => {
    if (DEFAULT_TRUE_PATHS.has(path)) return false;
    const found = getConfigValue(input.config, path);
    return !found.ok || !found.value;
  });
  if (unset.length) reasons.push(`config not set: ${unset.join(", ")}`);
  return reasons.length ? { status: "blocked", reason: reasons.join("; ") } : { status: "ready" };
}
