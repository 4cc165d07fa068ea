// Secret redaction for config values that leave the process (gateway config.* answers, `pincer config
// get`, health/status issues) and its inverse for writes: a redaction marker sent back keeps the stored
// secret. A value is secret by the config's structure (SECRET_PATHS: env blocks, header values) or by
// its key's name (token, password, apiKey, botToken, webhookSecret, ...); a URL with a password in it
// is secret wherever it stands.
import type { ConfigIssue } from "./config-issue.js";
import { formatConfigPath, isPlainObject, type PathSegment } from "./config-path.js";

/** What a redacted value reads as. */
export const REDACTED = "__REDACTED__";

/** OpenClaw's marker; accepted on writes like {@link REDACTED} so its clients round-trip too. */
export const OPENCLAW_REDACTED = "__OPENCLAW_REDACTED__";

/** True for either redaction marker. */
export function isRedactionMarker(value: unknown): value is string {
  return value === REDACTED || value === OPENCLAW_REDACTED;
}

/**
 * Places that hold secrets whatever their key is called (`*` one key or index, `**` any number of
 * them): every value of an `env` block (`env.OPENAI_API_KEY`, `env.vars.*`, `skills.entries.*.env.*`) and
 * every header value (`models.providers.*.headers.Authorization`).
 */
export const SECRET_PATHS: readonly string[] = ["**.env.*", "**.env.vars.*", "**.headers.*"];

const SECRET_PATTERNS = SECRET_PATHS.map((path) => path.split("."));

const SECRET_KEY =
  /^(token|password|passwd|secret|apikey|api_key|authorization|cookie|credentials?|passphrase|privatekey|private_key|serviceaccount|.*(secret|password|passwd|apikeys?|api_key|tokens?|secretkey|privatekey|accesskey|passphrase|credentials))$/i;

/** A URL carrying a password (`https://user:pass@host`): secret whatever its key. */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;

/** Whether a key names a secret (token, password, apiKey, secret, botToken, Authorization, ...). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

function matches(segments: readonly PathSegment[], pattern: readonly string[]): boolean {
  if (pattern.length === 0) return segments.length === 0;
  const [head, ...rest] = pattern;
  if (head === "**") {
    for (let skip = 0; skip <= segments.length; skip++) {
      if (matches(segments.slice(skip), rest)) return true;
    }
    return false;
  }
  if (segments.length === 0) return false;
  return (head === "*" || head === String(segments[0])) && matches(segments.slice(1), rest);
}

/** Whether the value at `segments` is a secret by the config's structure or by its key's name. */
export function isSecretPath(segments: readonly PathSegment[]): boolean {
  const last = segments[segments.length - 1];
  if (typeof last === "string" && isSecretKey(last)) return true;
  return SECRET_PATTERNS.some((pattern) => matches(segments, pattern));
}

/** A SecretRef (`{source, id}`): a pointer to a secret, redacted as a whole. */
function isSecretRef(value: unknown): boolean {
  return isPlainObject(value) && typeof value.source === "string" && "id" in value;
}

function redactAt(value: unknown, segments: PathSegment[]): unknown {
  if (value === null || value === undefined || typeof value === "boolean") return value;
  const last = segments[segments.length - 1];
  if (typeof last === "string" && isSecretKey(last) && typeof value !== "number") return REDACTED;
  if (typeof value === "string" && URL_WITH_PASSWORD.test(value)) return REDACTED;
  const structural = SECRET_PATTERNS.some((pattern) => matches(segments, pattern));
  if (structural && (typeof value !== "object" || isSecretRef(value))) return REDACTED;
  if (Array.isArray(value)) return value.map((item, index) => redactAt(item, [...segments, index]));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = redactAt(child, [...segments, key]);
  return out;
}

/** A deep copy of a config value with every secret replaced by {@link REDACTED} (booleans, nulls and
 * numbers under secret-named keys such as `maxTokens` are kept). */
export function redactConfig<T>(value: T): T {
  return redactAt(value, []) as T;
}

/** Issues safe to show: a message about a secret path has its quoted values replaced by the marker. */
export function redactIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
  return issues.map((issue) => {
    if (!issue.path || !issueIsAboutSecret(issue.path)) return issue;
    return { ...issue, message: issue.message.replace(/"(?:[^"\\]|\\.)*"/g, `"${REDACTED}"`) };
  });
}

function issueIsAboutSecret(path: string): boolean {
  const segments = path.split(/[.[\]]+/).filter((part) => part !== "");
  return segments.some((_, index) => isSecretPath(segments.slice(0, index + 1)));
}

/** Outcome of {@link restoreRedacted}: the value with stored secrets put back, and markers that had
 * nothing stored at their path (the caller refuses those: the marker is never written). */
export interface RestoreResult {
  value: unknown;
  restored: PathSegment[][];
  missing: string[];
}

function storedAt(
  stored: unknown,
  segments: readonly PathSegment[],
): { found: boolean; value?: unknown } {
  let current = stored;
  for (const segment of segments) {
    if (typeof segment === "number" ? !Array.isArray(current) : !isPlainObject(current))
      return { found: false };
    const container = current as Record<string, unknown>;
    if (!Object.hasOwn(container, segment)) return { found: false };
    current = container[segment as keyof typeof container];
  }
  return current === undefined || isRedactionMarker(current)
    ? { found: false }
    : { found: true, value: current };
}

/** Replaces every redaction marker in `value` (rooted at `at`) with the value stored at the same path. */
export function restoreRedacted(params: {
  value: unknown;
  stored: unknown;
  at?: readonly PathSegment[];
}): RestoreResult {
  const restored: PathSegment[][] = [];
  const missing: string[] = [];
  const walk = (value: unknown, segments: PathSegment[]): unknown => {
    if (isRedactionMarker(value)) {
      const found = storedAt(params.stored, segments);
      if (!found.found) {
        missing.push(formatConfigPath(segments));
        return value;
      }
      restored.push(segments);
      return found.value;
    }
    if (Array.isArray(value)) return value.map((item, index) => walk(item, [...segments, index]));
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) out[key] = walk(child, [...segments, key]);
    return out;
  };
  const value = walk(params.value, [...(params.at ?? [])]);
  return { value, restored, missing };
}

/** The refusal message for markers with no stored secret behind them. */
export function unresolvedMarkerMessage(): string {
  return `is the redaction marker ${REDACTED}, and no stored value exists at that path to keep; send the real value`;
}
