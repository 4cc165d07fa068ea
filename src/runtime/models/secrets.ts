// Secrets written in the config: an inline string (the loader already substituted `${VAR}`) or a
// SecretRef; only `{ source: "env" }` refs resolve here, from the environment passed in.
import type { SecretInput } from "../../protocol/config/index.js";
import type { StoredSecretRef } from "./auth-store.js";

/** A resolved secret, or why it could not be resolved (never containing the secret). */
export type SecretResult =
  | { ok: true; value: string; envVar?: string }
  | { ok: false; error: string };

/** Resolves a config secret: a non-empty string, or an env SecretRef whose variable is set. */
export function resolveSecret(
  value: SecretInput | StoredSecretRef | undefined,
  env: Record<string, string | undefined>,
): SecretResult {
  if (typeof value === "string") {
    const trimmed = value.trim();
    return trimmed ? { ok: true, value: trimmed } : { ok: false, error: "empty value" };
  }
  if (!value || typeof value !== "object") return { ok: false, error: "not set" };
  if (value.source !== "env") {
    return {
      ok: false,
      error: `SecretRef source "${value.source}" is not supported yet (use env)`,
    };
  }
  const resolved = env[value.id]?.trim();
  return resolved
    ? { ok: true, value: resolved, envVar: value.id }
    : { ok: false, error: `environment variable ${value.id} is not set` };
}
