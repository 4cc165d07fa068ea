// Secret redaction for config.get: any value under a key that names a secret becomes "__REDACTED__".

/** Replacement for redacted values. */
export const REDACTED = "__REDACTED__";

const SECRET_KEY =
  /^(token|password|secret|apikey|api_key|bottoken|apptoken|accesstoken|refreshtoken|privatekey|clientsecret|signingsecret|webhooksecret|bootstraptoken|devicetoken|.*(secret|password|apikey|token))$/i;

/** Whether a key names a secret (token, password, apiKey, secret, botToken, …). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** A deep copy of `value` with secret-named keys redacted (numbers and booleans are kept). */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const secret =
      isSecretKey(key) && typeof child !== "number" && typeof child !== "boolean" && child !== null;
    out[key] = secret ? REDACTED : redactSecrets(child);
  }
  return out;
}
