// A credential key of a channel account as OpenClaw writes it: a string (with `${VAR}` references)
// or an env SecretRef (`{ source: "env", id }`). One reader for every adapter, so a missing
// variable or an unsupported source is reported the same way everywhere, naming the key.
import { substituteEnvInString } from "../config/env-substitution.js";

/** What a credential key gave: its value and where it came from, nothing (unset), or why not. */
export interface SecretRead {
  value?: string;
  source?: "config" | "env";
  problem?: string;
}

/** Reads one credential key (`key` names it in the problem); an empty value counts as unset. */
export function readSecretInput(params: {
  key: string;
  value: unknown;
  env: Record<string, string | undefined>;
}): SecretRead {
  const { key, value, env } = params;
  if (typeof value === "string") {
    const { text, missing } = substituteEnvInString(value, env);
    if (missing.length > 0) return { problem: `${key}: ${missing[0]} is not set` };
    return text.trim() ? { value: text.trim(), source: "config" } : {};
  }
  if (value && typeof value === "object") {
    const ref = value as { source?: unknown; id?: unknown };
    if (ref.source !== "env" || typeof ref.id !== "string")
      return {
        problem: `${key}: SecretRef source "${String(ref.source)}" is not supported (use env)`,
      };
    const text = env[ref.id]?.trim();
    return text
      ? { value: text, source: "env" }
      : { problem: `${key}: environment variable ${ref.id} is not set` };
  }
  return {};
}

/** A positive finite number setting, else `fallback`. */
export function positiveNumber(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;
}
