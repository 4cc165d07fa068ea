// A small parser for the `---` frontmatter of SKILL.md: `key: value` lines (plain, "double" or
// 'single' quoted, `|`/`>` blocks, indented continuations) and a JSON/JSON5 object for `metadata`,
// on one line or spread over several. Deliberately not YAML: anything else is a reported error.
import { parseJson5 } from "../../lib/json5.js";

/** A parsed frontmatter: scalar fields as strings, the metadata object, and the markdown body. */
export interface SkillFrontmatter {
  fields: Record<string, string>;
  /** The `metadata` value when present (always a plain object). */
  metadata?: Record<string, unknown>;
  body: string;
}

/** Result of {@link parseSkillFrontmatter}: the frontmatter, or why the file is malformed. */
export type FrontmatterResult = ({ ok: true } & SkillFrontmatter) | { ok: false; error: string };

const KEY_LINE = /^([A-Za-z0-9_][A-Za-z0-9_.-]*):(?:[ \t]+(.*))?$/;
const BLOCK_HEADER = /^([|>])[+-]?[ \t]*(?:#.*)?$/;

/** Lines after the key line that belong to it: indented or blank (trailing blanks excluded). */
function continuation(lines: string[], start: number, end: number): number {
  let next = start;
  let last = start;
  while (next < end && (lines[next].trim() === "" || /^[ \t]/.test(lines[next]))) {
    next++;
    if (lines[next - 1].trim() !== "") last = next;
  }
  return last;
}

/** Counts `{`/`[` depth outside strings and `//` comments, to find where a JSON value ends. */
function jsonDepth(text: string): number {
  let depth = 0;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote) {
      if (char === "\\") i++;
      else if (char === quote) quote = "";
    } else if (char === "/" && text[i + 1] === "/") {
      const eol = text.indexOf("\n", i);
      i = eol < 0 ? text.length : eol;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
  }
  return depth;
}

/** Reads a JSON value starting on `lines[start]` (after the key) until its brackets balance. */
function readJsonValue(
  lines: string[],
  first: { text: string; index: number; end: number },
): { text: string; next: number } | { error: string } {
  let text = first.text;
  let index = first.index;
  if (text.trim() === "") {
    // `metadata:` alone on its line: the value is the next non-blank line, if indented or a `{`.
    let next = index + 1;
    while (next < first.end && lines[next].trim() === "") next++;
    if (next >= first.end || !/^([ \t]|\{)/.test(lines[next])) return { text: "", next };
    text = lines[next];
    index = next;
  }
  let depth = jsonDepth(text);
  while (depth > 0 && index + 1 < first.end) {
    text += `\n${lines[++index]}`;
    depth = jsonDepth(text);
  }
  if (depth > 0) return { error: "metadata: unbalanced braces (the JSON object is not closed)" };
  return { text, next: index + 1 };
}

type MetadataResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

function parseMetadata(text: string): MetadataResult {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) {
    return {
      ok: false,
      error:
        'metadata must be a JSON object, e.g. metadata: {"openclaw": {...}} (YAML maps are not supported)',
    };
  }
  try {
    const value: unknown = parseJson5(trimmed);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return { ok: true, value: value as Record<string, unknown> };
    }
    return { ok: false, error: "metadata must be a JSON object" };
  } catch (err) {
    const detail = err instanceof Error ? err.message.replace(/^JSON5:\s*/, "") : String(err);
    return { ok: false, error: `metadata is not valid JSON: ${detail}` };
  }
}

/** Strips a plain scalar's ` # comment` (YAML only starts a comment after whitespace). */
function stripComment(text: string): string {
  const at = text.search(/(^|[ \t])#/);
  return (at < 0 ? text : text.slice(0, at)).trim();
}

/** Decodes a quoted scalar; `text` starts with the quote. */
function unquote(text: string): string | { error: string } {
  const quote = text[0];
  let index = 1;
  while (index < text.length) {
    if (quote === '"' && text[index] === "\\") index += 2;
    else if (quote === "'" && text[index] === "'" && text[index + 1] === "'") index += 2;
    else if (text[index] === quote) break;
    else index++;
  }
  if (index >= text.length) return { error: `unterminated ${quote} quote` };
  if (stripComment(text.slice(index + 1)) !== "") {
    return { error: `unexpected text after the closing ${quote} quote` };
  }
  const inner = text.slice(1, index);
  if (quote === "'") return inner.replaceAll("''", "'");
  try {
    return JSON.parse(`"${inner.replace(/\t/g, "\\t")}"`) as string;
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return { error: `bad escape in "…" value (${detail})` };
  }
}

/** `|` keeps line breaks, `>` folds lines into one (blank lines become breaks). */
function readBlock(kind: string, body: string[]): string {
  const indents = body.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  const rows = body.map((l) => l.slice(cut).trimEnd());
  if (kind === "|") return rows.join("\n").trim();
  return rows
    .join("\n")
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.split("\n").join(" "))
    .join("\n")
    .trim();
}

/** Turns one key's raw text (first line + continuation lines) into its string value. */
function readScalar(first: string, rest: string[]): string | { error: string } {
  const header = first.trim();
  if (BLOCK_HEADER.test(header)) return readBlock(header[0], rest);
  // Plain and quoted scalars may wrap onto indented lines; YAML folds them with spaces.
  const joined = [header, ...rest.map((l) => l.trim())].filter((l) => l !== "").join(" ");
  if (joined.startsWith('"') || joined.startsWith("'")) return unquote(joined);
  return stripComment(joined);
}

/** Parses SKILL.md text: `---`, `key: value` lines, `---`, then the body. CRLF and a BOM are fine. */
export function parseSkillFrontmatter(source: string): FrontmatterResult {
  const lines = source
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  if (lines[0].trimEnd() !== "---") {
    return { ok: false, error: "no frontmatter: SKILL.md must start with a --- line" };
  }
  const close = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)$/.test(line.trimEnd()));
  if (close < 0) return { ok: false, error: "frontmatter is not closed (no second --- line)" };
  const fields = new Map<string, string>();
  let metadata: Record<string, unknown> | undefined;
  let index = 1;
  while (index < close) {
    const line = lines[index];
    const lineNo = index + 1;
    if (line.trim() === "" || line.trimStart().startsWith("#")) {
      index++;
      continue;
    }
    const match = KEY_LINE.exec(line.trimEnd());
    if (!match) return { ok: false, error: `line ${lineNo}: expected "key: value"` };
    const key = match[1];
    const value = match[2] ?? "";
    if (fields.has(key) || (key === "metadata" && metadata)) {
      return { ok: false, error: `line ${lineNo}: duplicate key "${key}"` };
    }
    if (key === "metadata") {
      const read = readJsonValue(lines, { text: value, index, end: close });
      if ("error" in read) return { ok: false, error: read.error };
      index = read.next;
      if (read.text.trim() === "") continue;
      const parsed = parseMetadata(read.text);
      if (!parsed.ok) return parsed;
      metadata = parsed.value;
      continue;
    }
    const next = continuation(lines, index + 1, close);
    const scalar = readScalar(value, lines.slice(index + 1, next));
    if (typeof scalar !== "string") return { ok: false, error: `${key}: ${scalar.error}` };
    fields.set(key, scalar);
    index = next;
  }
  const body = lines.slice(close + 1).join("\n");
  // fromEntries defines own properties, so a key like "__proto__" stays a plain field.
  const record = Object.fromEntries(fields);
  return metadata
    ? { ok: true, fields: record, metadata, body }
    : { ok: true, fields: record, body };
}
