// The nesting limit of config values. Every reader and writer of config text or values walks them
// recursively (resolver, validator, splicer, redaction), so input nested deeper than this is refused up
// front — by an iterative scan that never recurses — instead of overflowing the stack.
import { isPlainObject } from "./config-path.js";

/** Most levels of objects/arrays a config (file, raw write, patch or edit value) may nest. */
export const MAX_CONFIG_DEPTH = 64;

/** The message of every depth refusal (names the limit). */
export function tooDeepMessage(limit = MAX_CONFIG_DEPTH): string {
  return `nested deeper than ${limit} levels (the config depth limit); flatten the value`;
}

/** Skips a JSON5 string starting at `start` (its quote); returns the offset after it. */
function skipString(text: string, start: number): number {
  const quote = text[start];
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === "\\") index += 2;
    else if (char === quote) return index + 1;
    else index++;
  }
  return index;
}

/** Skips a comment starting at `start` (`//` or `/*`); returns the offset after it. */
function skipComment(text: string, start: number): number {
  if (text[start + 1] === "/") {
    const end = text.slice(start).search(/[\n\r\u2028\u2029]/);
    return end < 0 ? text.length : start + end;
  }
  const end = text.indexOf("*/", start + 2);
  return end < 0 ? text.length : end + 2;
}

/**
 * The offset of the first `{` or `[` that opens level `limit + 1` in JSON5 text, or undefined when the
 * text nests no deeper than `limit`. Strings and comments are skipped; malformed text is fine (the parser
 * reports it).
 */
export function findTooDeep(text: string, limit = MAX_CONFIG_DEPTH): number | undefined {
  let depth = 0;
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (char === '"' || char === "'") {
      index = skipString(text, index);
      continue;
    }
    if (char === "/" && (text[index + 1] === "/" || text[index + 1] === "*")) {
      index = skipComment(text, index);
      continue;
    }
    if (char === "{" || char === "[") {
      depth++;
      if (depth > limit) return index;
    } else if (char === "}" || char === "]") {
      depth = Math.max(0, depth - 1);
    }
    index++;
  }
  return undefined;
}

/** True when `value` nests objects/arrays deeper than `limit` (iterative: safe on any input). */
export function valueTooDeep(value: unknown, limit = MAX_CONFIG_DEPTH): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const top = stack.pop() as { value: unknown; depth: number };
    const children = Array.isArray(top.value)
      ? top.value
      : isPlainObject(top.value)
        ? Object.values(top.value)
        : undefined;
    if (!children || seen.has(top.value)) continue;
    seen.add(top.value);
    const depth = top.depth + 1;
    if (depth > limit) return true;
    for (const child of children) stack.push({ value: child, depth });
  }
  return false;
}
