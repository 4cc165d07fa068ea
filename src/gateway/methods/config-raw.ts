// The config file's text as config.get shows it (`raw`, as OpenClaw's): comments and layout kept,
// every secret replaced in place by the redaction marker that config.set / config.apply turn back
// into the stored value. Undefined when the text cannot be redacted safely (then only the parsed,
// redacted `config` is shown).
import { type PathSegment, readConfigSnapshot, redactConfig } from "../../config/index.js";
import { setInText } from "../../config/json5-splice.js";
import { parseJson5 } from "../../lib/json5.js";

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === "object" && value !== null;
}

/** Paths where `redacted` differs from `plain` (redaction only replaces values, never adds keys). */
function redactedPaths(plain: unknown, redacted: unknown, at: PathSegment[]): PathSegment[][] {
  if (
    isContainer(plain) &&
    isContainer(redacted) &&
    Array.isArray(plain) === Array.isArray(redacted)
  ) {
    return Object.keys(plain).flatMap((key) => {
      const segment: PathSegment = Array.isArray(plain) ? Number(key) : key;
      const a = (plain as Record<string, unknown>)[key];
      const b = (redacted as Record<string, unknown>)[key];
      return redactedPaths(a, b, [...at, segment]);
    });
  }
  return JSON.stringify(plain) === JSON.stringify(redacted) ? [] : [at];
}

/** The main config file's text with its secrets redacted, if it still has hash `hash`. */
export function redactedConfigText(path: string, hash: string): string | undefined {
  const snapshot = readConfigSnapshot(path);
  if (!snapshot.exists || snapshot.hash !== hash) return undefined;
  let plain: unknown;
  try {
    plain = parseJson5(snapshot.text);
  } catch {
    // An unparsable file: config.get reports it through `issues`; no raw text to redact.
    return undefined;
  }
  const redacted = redactConfig(plain);
  let text = snapshot.text;
  for (const segments of redactedPaths(plain, redacted, [])) {
    let value: unknown = redacted;
    for (const segment of segments) value = (value as Record<string, unknown>)[segment];
    const spliced = setInText({ text, segments, value });
    if (!spliced.ok) return undefined;
    text = spliced.text;
  }
  return text;
}
