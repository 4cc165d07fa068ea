// Config paths in OpenClaw notation: `agents.list[1].agentDir`, `channels.telegram.accounts.default`,
// `broadcast["telegram:123"]`. One segment is an object key (string) or an array index (number).

/** One step of a config path: an object key or an array index. */
export type PathSegment = string | number;

/** Result of {@link parseConfigPath}: segments, or a plain-words error for a malformed path. */
export type ParsedConfigPath = { ok: true; segments: PathSegment[] } | { ok: false; error: string };

const PLAIN_KEY = /^[^.[\]\s"']+$/;

function parseBracket(
  path: string,
  start: number,
): { segment: PathSegment; next: number } | { error: string } {
  const quote = path[start + 1];
  if (quote === '"' || quote === "'") {
    let index = start + 2;
    let key = "";
    while (index < path.length && path[index] !== quote) {
      if (path[index] === "\\" && index + 1 < path.length) index++;
      key += path[index];
      index++;
    }
    if (path[index] !== quote || path[index + 1] !== "]") {
      return { error: `unterminated quoted key at position ${start + 1} in "${path}"` };
    }
    return { segment: key, next: index + 2 };
  }
  const close = path.indexOf("]", start);
  if (close < 0) return { error: `missing "]" after position ${start + 1} in "${path}"` };
  const inner = path.slice(start + 1, close).trim();
  if (!/^\d+$/.test(inner)) {
    return { error: `"[${inner}]" in "${path}" is not an array index (use a number, or ["key"])` };
  }
  return { segment: Number(inner), next: close + 1 };
}

/** Splits a config path into segments; `[n]` is an index, `["k"]` a quoted key, `.k` a plain key. */
export function parseConfigPath(path: string): ParsedConfigPath {
  const text = path.trim();
  if (text === "") return { ok: false, error: "the config path is empty" };
  const segments: PathSegment[] = [];
  let index = 0;
  let expectKey = true;
  while (index < text.length) {
    const char = text[index];
    if (char === "[") {
      const parsed = parseBracket(text, index);
      if ("error" in parsed) return { ok: false, error: parsed.error };
      segments.push(parsed.segment);
      index = parsed.next;
      expectKey = false;
      continue;
    }
    if (char === ".") {
      if (expectKey) return { ok: false, error: `empty key at position ${index + 1} in "${path}"` };
      index++;
      expectKey = true;
      if (index >= text.length) return { ok: false, error: `"${path}" ends with "."` };
      continue;
    }
    if (!expectKey) {
      return { ok: false, error: `expected "." or "[" at position ${index + 1} in "${path}"` };
    }
    let end = index;
    while (end < text.length && text[end] !== "." && text[end] !== "[") end++;
    const key = text.slice(index, end);
    if (!PLAIN_KEY.test(key)) {
      return { ok: false, error: `key "${key}" in "${path}" needs quoting, e.g. ["${key}"]` };
    }
    segments.push(key);
    index = end;
    expectKey = false;
  }
  return { ok: true, segments };
}

/** Formats segments back into a path (`a.b[0]["x.y"]`); inverse of {@link parseConfigPath}. */
export function formatConfigPath(segments: readonly PathSegment[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** True for a non-null, non-array object (what JSON calls an object). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads one step; undefined when the container lacks it. */
function step(container: unknown, segment: PathSegment): { found: boolean; value?: unknown } {
  if (typeof segment === "number") {
    if (!Array.isArray(container) || segment >= container.length) return { found: false };
    return { found: true, value: container[segment] };
  }
  if (isPlainObject(container) && Object.hasOwn(container, segment)) {
    return { found: true, value: container[segment] };
  }
  return { found: false };
}

/** Result of {@link getConfigValue}: the value, or why it could not be read. */
export type ConfigValueResult =
  | { ok: true; value: unknown }
  | { ok: false; reason: "invalid-path" | "not-found"; error: string };

/** Reads `path` (string or segments) from a config value, for `config get` and diagnostics. */
export function getConfigValue(
  config: unknown,
  path: string | readonly PathSegment[],
): ConfigValueResult {
  let segments: readonly PathSegment[];
  if (typeof path === "string") {
    const parsed = parseConfigPath(path);
    if (!parsed.ok) return { ok: false, reason: "invalid-path", error: parsed.error };
    segments = parsed.segments;
  } else {
    segments = path;
  }
  let current: unknown = config;
  for (let i = 0; i < segments.length; i++) {
    const next = step(current, segments[i]);
    if (!next.found) {
      const where = formatConfigPath(segments.slice(0, i + 1));
      return { ok: false, reason: "not-found", error: `${where} is not set` };
    }
    current = next.value;
  }
  return { ok: true, value: current };
}

/** Paths from the given one up to the root (`a.b[0]`, `a.b`, `a`, ``), for "nearest located parent". */
export function ancestorPaths(segments: readonly PathSegment[]): string[] {
  const out: string[] = [];
  for (let length = segments.length; length >= 0; length--) {
    out.push(formatConfigPath(segments.slice(0, length)));
  }
  return out;
}
