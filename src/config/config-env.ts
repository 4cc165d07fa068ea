// The config's `env` block (`env.vars.NAME` and the shorthand `env.NAME`), applied as OpenClaw does:
// only where the process environment lacks the variable (the real env always wins), before `${VAR}`
// substitution so the rest of the same file can use them. The process env itself is never mutated.
import { isPlainObject } from "./config-path.js";
import { substituteEnvInString } from "./env-substitution.js";

/** An environment as every area reads it (process.env or a copy of it). */
export type EnvMap = Record<string, string | undefined>;

/** Keys of the `env` block that are settings, not variables. */
const NON_VAR_KEYS = new Set(["vars", "shellEnv"]);

/** The variables the raw config's `env` block declares: string `env.vars.*` and string `env.<NAME>`
 *  (`env.vars` wins when both name the same variable). Non-string values are left to validation. */
export function configEnvVars(config: unknown): Record<string, string> {
  const block = isPlainObject(config) ? config.env : undefined;
  if (!isPlainObject(block)) return {};
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(block)) {
    if (!NON_VAR_KEYS.has(name) && typeof value === "string") out[name] = value;
  }
  if (isPlainObject(block.vars)) {
    for (const [name, value] of Object.entries(block.vars)) {
      if (typeof value === "string") out[name] = value;
    }
  }
  return out;
}

/** A variable counts as missing when unset or blank (as OpenClaw: an empty export does not block it). */
function isMissing(env: EnvMap, name: string): boolean {
  return !env[name]?.trim();
}

/** The effective environment: a copy of `base` plus each config var it lacks. A var's own `${VAR}`
 *  references resolve against `base` only; one that cannot resolve is not applied (substitution of the
 *  config then reports the missing variable at its path). */
export function withConfigEnv(params: { base: EnvMap; config: unknown }): EnvMap {
  const env: EnvMap = { ...params.base };
  for (const [name, raw] of Object.entries(configEnvVars(params.config))) {
    if (!isMissing(params.base, name)) continue;
    const { text, missing } = substituteEnvInString(raw, params.base);
    if (missing.length === 0) env[name] = text;
  }
  return env;
}

/** Replaces the contents of a live env object in place, so holders of it see a reload's vars. */
export function refreshEnv(target: EnvMap, next: EnvMap): void {
  for (const name of Object.keys(target)) if (!(name in next)) delete target[name];
  Object.assign(target, next);
}
