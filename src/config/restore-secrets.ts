// Whole-file writes (gateway config.set / config.apply) carry the text a client built from a redacted
// config.get: every redaction marker in it is replaced, in the text, by the value stored at the same
// path in the current file (as written there: `${VAR}` stays `${VAR}`), so secrets survive the round
// trip and the marker itself is never written. A marker with nothing stored behind it is refused.
import type { ConfigIssue } from "./config-issue.js";
import { formatConfigPath, getConfigValue } from "./config-path.js";
import { resolveConfigSource } from "./config-source.js";
import { parseJson5Text } from "./json5-parse.js";
import { setInText } from "./json5-splice.js";
import { restoreRedacted, unresolvedMarkerMessage } from "./redaction.js";

/** Inputs of {@link restoreSecretsInText}: the text to write and the file it replaces. */
export interface RestoreTextParams {
  /** The config file path (includes of the current file resolve next to it). */
  file: string;
  /** The new whole-file text. */
  text: string;
  /** The current file's text (`undefined` when it does not exist: nothing is stored). */
  currentText: string | undefined;
  home: string;
}

/** The text with stored secrets spliced in for markers, or issues (syntax, depth, unresolved marker). */
export function restoreSecretsInText(
  params: RestoreTextParams,
): { ok: true; text: string } | { ok: false; issues: ConfigIssue[] } {
  const parsed = parseJson5Text(params.file, params.text);
  if (!parsed.ok) return { ok: false, issues: [parsed.issue] };
  const stored =
    params.currentText === undefined
      ? {}
      : resolveConfigSource({ file: params.file, home: params.home, text: params.currentText })
          .value;
  const restored = restoreRedacted({ value: parsed.value, stored });
  if (restored.missing.length > 0) {
    const issues = restored.missing.map(
      (path): ConfigIssue => ({ severity: "error", path, message: unresolvedMarkerMessage() }),
    );
    return { ok: false, issues };
  }
  let text = params.text;
  for (const segments of restored.restored) {
    const value = getConfigValue(stored, segments);
    if (!value.ok) continue;
    const spliced = setInText({ text, segments, value: value.value });
    if (!spliced.ok) {
      const path = formatConfigPath(segments);
      return { ok: false, issues: [{ severity: "error", path, message: spliced.error }] };
    }
    text = spliced.text;
  }
  return { ok: true, text };
}
