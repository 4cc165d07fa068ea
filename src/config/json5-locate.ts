// A small JSON5 scanner that records where every value stands in the source text. It runs only on text
// that `json5` already parsed, so it can stay lenient; the parse itself (and syntax errors) is json5's.

import { parseJson5 } from "../lib/json5.js";
import { formatConfigPath, type PathSegment } from "./config-path.js";

/** Kind of JSON5 value a node holds. */
export type Json5NodeKind = "object" | "array" | "string" | "number" | "boolean" | "null";

/** One value in the source: its span, the span of its key (members only) and its children. */
export interface Json5Node {
  kind: Json5NodeKind;
  /** Offset of the value's first character. */
  start: number;
  /** Offset just after the value's last character. */
  end: number;
  /** Offset of the member's key (object members only). */
  keyStart?: number;
  /** Members (objects, key strings) or elements (arrays, indices), in source order. */
  children?: Array<{ key: PathSegment; node: Json5Node }>;
}

/** Where a value stands: 1-based line/column of its key (or of the value), and raw offsets. */
export interface Json5Location {
  line: number;
  column: number;
  start: number;
  end: number;
  keyStart?: number;
}

const WHITESPACE = /[\s\uFEFF]/;
const IDENT_CHAR = /^(?:[\p{L}\p{N}_$\\]|\u200C|\u200D)$/u;

/** Offsets where each line starts, for offset → line/column conversion. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (const match of text.matchAll(/\r\n|[\n\r\u2028\u2029]/g))
    starts.push(match.index + match[0].length);
  return starts;
}

/** 1-based line and column of `offset`, given {@link lineStarts}. */
export function positionAt(
  starts: readonly number[],
  offset: number,
): { line: number; column: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - starts[low] + 1 };
}

/** Offset of the next character that is not whitespace or a comment. */
export function skipTrivia(text: string, offset: number): number {
  let index = offset;
  while (index < text.length) {
    const char = text[index];
    if (WHITESPACE.test(char)) {
      index++;
    } else if (char === "/" && text[index + 1] === "/") {
      while (index < text.length && !/[\n\r\u2028\u2029]/.test(text[index])) index++;
    } else if (char === "/" && text[index + 1] === "*") {
      const close = text.indexOf("*/", index + 2);
      index = close < 0 ? text.length : close + 2;
    } else {
      break;
    }
  }
  return index;
}

function scanString(text: string, start: number): number {
  const quote = text[start];
  let index = start + 1;
  while (index < text.length && text[index] !== quote) {
    index += text[index] === "\\" ? 2 : 1;
  }
  return index + 1;
}

function scanWord(text: string, start: number): number {
  let index = start;
  while (index < text.length && /[\w$.+\-\\\p{L}]/u.test(text[index])) index++;
  return Math.max(index, start + 1);
}

/** The key a raw key token stands for (quoted strings and `\uXXXX` escapes decoded). */
function decodeKey(raw: string): string {
  if (raw.startsWith('"') || raw.startsWith("'")) return parseJson5(raw) as string;
  if (!raw.includes("\\")) return raw;
  return Object.keys(parseJson5(`{${raw}:0}`) as Record<string, unknown>)[0] ?? raw;
}

interface Cursor {
  text: string;
  index: number;
}

function scanMembers(cursor: Cursor, node: Json5Node): void {
  const { text } = cursor;
  node.children = [];
  cursor.index = skipTrivia(text, cursor.index + 1);
  while (cursor.index < text.length && text[cursor.index] !== "}") {
    const keyStart = cursor.index;
    const first = text[keyStart];
    let keyEnd = keyStart;
    if (first === '"' || first === "'") keyEnd = scanString(text, keyStart);
    else while (keyEnd < text.length && IDENT_CHAR.test(text[keyEnd])) keyEnd++;
    const key = decodeKey(text.slice(keyStart, Math.max(keyEnd, keyStart + 1)));
    cursor.index = skipTrivia(text, keyEnd);
    if (text[cursor.index] === ":") cursor.index = skipTrivia(text, cursor.index + 1);
    const child = scanValue(cursor);
    child.keyStart = keyStart;
    node.children.push({ key, node: child });
    cursor.index = skipTrivia(text, cursor.index);
    if (text[cursor.index] === ",") cursor.index = skipTrivia(text, cursor.index + 1);
  }
  cursor.index = Math.min(cursor.index + 1, text.length);
}

function scanElements(cursor: Cursor, node: Json5Node): void {
  const { text } = cursor;
  node.children = [];
  cursor.index = skipTrivia(text, cursor.index + 1);
  while (cursor.index < text.length && text[cursor.index] !== "]") {
    const child = scanValue(cursor);
    node.children.push({ key: node.children.length, node: child });
    cursor.index = skipTrivia(text, cursor.index);
    if (text[cursor.index] === ",") cursor.index = skipTrivia(text, cursor.index + 1);
  }
  cursor.index = Math.min(cursor.index + 1, text.length);
}

function scanValue(cursor: Cursor): Json5Node {
  const { text } = cursor;
  const start = cursor.index;
  const char = text[start];
  if (char === "{" || char === "[") {
    const node: Json5Node = { kind: char === "{" ? "object" : "array", start, end: start };
    if (char === "{") scanMembers(cursor, node);
    else scanElements(cursor, node);
    node.end = cursor.index;
    return node;
  }
  if (char === '"' || char === "'") {
    cursor.index = scanString(text, start);
    return { kind: "string", start, end: cursor.index };
  }
  cursor.index = scanWord(text, start);
  const word = text.slice(start, cursor.index);
  const kind: Json5NodeKind =
    word === "true" || word === "false" ? "boolean" : word === "null" ? "null" : "number";
  return { kind, start, end: cursor.index };
}

/** Scans already-valid JSON5 text into a node tree; undefined when the text holds no value. */
export function scanJson5(text: string): Json5Node | undefined {
  const cursor: Cursor = { text, index: skipTrivia(text, 0) };
  if (cursor.index >= text.length) return undefined;
  return scanValue(cursor);
}

/** Follows `segments` down the tree; returns the deepest node reached and how many segments matched. */
export function findJson5Node(
  root: Json5Node,
  segments: readonly PathSegment[],
): { node: Json5Node; matched: number } {
  let node = root;
  let matched = 0;
  for (const segment of segments) {
    const children = node.children ?? [];
    let next: Json5Node | undefined;
    // Duplicate keys: json5 keeps the last one, so search from the end.
    for (let i = children.length - 1; i >= 0; i--) {
      if (children[i].key === segment) {
        next = children[i].node;
        break;
      }
    }
    if (!next) break;
    node = next;
    matched++;
  }
  return { node, matched };
}

/** Maps every value path (`a.b[0]`, root is ``) to its location; the key's position for members. */
export function locateJson5(text: string): Map<string, Json5Location> {
  const out = new Map<string, Json5Location>();
  const root = scanJson5(text);
  if (!root) return out;
  const starts = lineStarts(text);
  const visit = (node: Json5Node, segments: PathSegment[]): void => {
    const anchor = node.keyStart ?? node.start;
    out.set(formatConfigPath(segments), {
      ...positionAt(starts, anchor),
      start: node.start,
      end: node.end,
      ...(node.keyStart !== undefined ? { keyStart: node.keyStart } : {}),
    });
    for (const child of node.children ?? []) visit(child.node, [...segments, child.key]);
  };
  visit(root, []);
  return out;
}
