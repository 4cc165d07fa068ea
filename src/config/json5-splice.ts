// Edits JSON5 text in place by splicing: replace a value's span, insert a member into the nearest
// existing object, append to an array, or remove a member. Comments, layout and untouched keys stay
// byte-for-byte.
import { formatConfigPath, type PathSegment } from "./config-path.js";
import { findJson5Node, type Json5Node, scanJson5, skipTrivia } from "./json5-locate.js";
import { formatJson5Key, serializeJson5 } from "./json5-serialize.js";

/** Result of a text edit: the new text, or why the edit cannot be made. */
export type SpliceResult = { ok: true; text: string } | { ok: false; error: string };

interface Layout {
  unit: string;
  quoteKeys: boolean;
}

function lineStartOf(text: string, offset: number): number {
  let index = offset;
  while (index > 0 && !/[\n\r\u2028\u2029]/.test(text[index - 1])) index--;
  return index;
}

function indentOf(text: string, offset: number): string {
  const start = lineStartOf(text, offset);
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? "";
}

function startsLine(text: string, offset: number): boolean {
  return text.slice(lineStartOf(text, offset), offset).trim() === "";
}

function anchorOf(node: Json5Node): number {
  return node.keyStart ?? node.start;
}

function collectKeys(node: Json5Node, out: Json5Node[]): void {
  for (const child of node.children ?? []) {
    if (node.kind === "object") out.push(child.node);
    collectKeys(child.node, out);
  }
}

/** Detects the file's indentation step and whether it quotes every key (strict-JSON style). */
function detectLayout(text: string, root: Json5Node): Layout {
  const members: Json5Node[] = [];
  collectKeys(root, members);
  const quoteKeys = members.length > 0 && members.every((member) => text[anchorOf(member)] === '"');
  const first = root.children?.find((child) => startsLine(text, anchorOf(child.node)));
  const rootIndent = indentOf(text, root.start);
  const childIndent = first ? indentOf(text, anchorOf(first.node)) : "";
  const unit = childIndent.length > rootIndent.length ? childIndent.slice(rootIndent.length) : "  ";
  return { unit, quoteKeys };
}

/** One text replacement: `insert` takes the place of `[start, end)` (end defaults to start). */
interface TextSplice {
  start: number;
  end?: number;
  insert: string;
}

function splice(text: string, change: TextSplice): string {
  // Inserted text follows the file's line endings (CRLF files stay CRLF).
  const insert = text.includes("\r\n") ? change.insert.replace(/\r?\n/g, "\r\n") : change.insert;
  return text.slice(0, change.start) + insert + text.slice(change.end ?? change.start);
}

/** Inserts a rendered child (a `key: value` member or an array element) as the last child of `container`. */
function insertChild(params: {
  text: string;
  container: Json5Node;
  layout: Layout;
  render: (indent: string, compact: boolean) => string;
}): string {
  const { text, container, layout, render } = params;
  const close = container.end - 1;
  const containerIndent = indentOf(text, anchorOf(container));
  const children = container.children ?? [];
  if (children.length === 0) {
    const childIndent = containerIndent + layout.unit;
    const entry = render(childIndent, false);
    if (text.slice(container.start + 1, close).trim() === "") {
      const insert = `\n${childIndent}${entry}\n${containerIndent}`;
      return splice(text, { start: container.start + 1, end: close, insert });
    }
    if (startsLine(text, close)) {
      return splice(text, { start: lineStartOf(text, close), insert: `${childIndent}${entry}\n` });
    }
    return splice(text, { start: close, insert: `\n${childIndent}${entry}\n${containerIndent}` });
  }
  const last = children[children.length - 1].node;
  const commaAt = skipTrivia(text, last.end);
  const hasComma = text[commaAt] === ",";
  const afterLast = hasComma ? commaAt + 1 : last.end;
  const comma = hasComma ? "" : ",";
  if (!startsLine(text, anchorOf(children[0].node))) {
    return splice(text, { start: afterLast, insert: `${comma} ${render(containerIndent, true)}` });
  }
  const childIndent = startsLine(text, anchorOf(last))
    ? indentOf(text, anchorOf(last))
    : containerIndent + layout.unit;
  const entry = render(childIndent, false);
  const closeLine = lineStartOf(text, close);
  if (startsLine(text, close) && closeLine > afterLast) {
    // New line just above the closing bracket; keep the file's trailing-comma habit.
    const trailing = hasComma ? "," : "";
    const withEntry = splice(text, {
      start: closeLine,
      insert: `${childIndent}${entry}${trailing}\n`,
    });
    return hasComma ? withEntry : splice(withEntry, { start: last.end, insert: "," });
  }
  return splice(text, { start: afterLast, insert: `${comma}\n${childIndent}${entry}` });
}

/** Removes child `index` of `container`, with its comma and (when alone on its line) the whole line. */
function removeChild(params: { text: string; container: Json5Node; index: number }): string {
  const { text, container, index } = params;
  const children = container.children ?? [];
  const node = children[index].node;
  const from = anchorOf(node);
  const commaAt = skipTrivia(text, node.end);
  const hasComma = text[commaAt] === ",";
  let to = hasComma ? commaAt + 1 : node.end;
  if (!hasComma && index > 0 && !startsLine(text, from)) {
    const prevComma = skipTrivia(text, children[index - 1].node.end);
    return splice(text, { start: prevComma, end: node.end, insert: "" });
  }
  let start = from;
  const tail = /^[ \t]*(\/\/[^\n\r\u2028\u2029]*)?(\r\n|[\n\r\u2028\u2029]|$)/.exec(text.slice(to));
  if (startsLine(text, from) && tail) {
    start = lineStartOf(text, from);
    to += tail[0].length;
  } else {
    to += /^[ \t]*/.exec(text.slice(to))?.[0].length ?? 0;
  }
  let out = splice(text, { start, end: to, insert: "" });
  if (!hasComma && index > 0) {
    const prevComma = skipTrivia(out, children[index - 1].node.end);
    if (out[prevComma] === ",")
      out = splice(out, { start: prevComma, end: prevComma + 1, insert: "" });
  }
  return out;
}

function nest(segments: PathSegment[], value: unknown): unknown {
  return segments.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

function parseRoot(text: string): Json5Node | string {
  const root = scanJson5(text);
  if (root?.kind !== "object") return "the config file does not hold an object";
  return root;
}

function describeKind(kind: Json5Node["kind"]): string {
  if (kind === "array") return "an array (use an index)";
  if (kind === "object") return "an object (use a key)";
  return `a ${kind}`;
}

/** What to change: the file text, the path and (for set/append) the new value. */
export interface TextEdit {
  text: string;
  segments: PathSegment[];
  value?: unknown;
}

/** Sets `segments` to `value`: replaces an existing value, or inserts it into the nearest existing object. */
export function setInText(edit: TextEdit): SpliceResult {
  const { text, segments, value } = edit;
  const root = parseRoot(text);
  if (typeof root === "string") return { ok: false, error: root };
  const layout = detectLayout(text, root);
  const { node, matched } = findJson5Node(root, segments);
  if (matched === segments.length) {
    const anchor = anchorOf(node);
    const compact = !startsLine(text, anchor);
    const insert = serializeJson5(value, { indent: indentOf(text, anchor), ...layout, compact });
    return { ok: true, text: splice(text, { start: node.start, end: node.end, insert }) };
  }
  const where = formatConfigPath(segments.slice(0, matched)) || "the config root";
  const next = segments[matched];
  const rest = segments.slice(matched + 1);
  if (rest.some((segment) => typeof segment === "number")) {
    const missing = formatConfigPath(segments.slice(0, matched + 1));
    return {
      ok: false,
      error: `${missing} does not exist, so an index inside it cannot be set (use append)`,
    };
  }
  const nested = nest(rest, value);
  if (node.kind === "object" && typeof next === "string") {
    const key = formatJson5Key(next, layout.quoteKeys);
    const render = (indent: string, compact: boolean): string =>
      `${key}: ${serializeJson5(nested, { indent, ...layout, compact })}`;
    return { ok: true, text: insertChild({ text, container: node, layout, render }) };
  }
  if (node.kind === "array" && typeof next === "number") {
    const length = node.children?.length ?? 0;
    if (next !== length) {
      return { ok: false, error: `${where} has ${length} items; index ${next} is out of range` };
    }
    const render = (indent: string, compact: boolean): string =>
      serializeJson5(nested, { indent, ...layout, compact });
    return { ok: true, text: insertChild({ text, container: node, layout, render }) };
  }
  const error = `${where} is ${describeKind(node.kind)}, so ${formatConfigPath(segments)} cannot be set`;
  return { ok: false, error };
}

/** Appends `value` to the array at `segments`, creating the array when the path does not exist. */
export function appendInText(edit: TextEdit): SpliceResult {
  const { text, segments, value } = edit;
  const root = parseRoot(text);
  if (typeof root === "string") return { ok: false, error: root };
  const { node, matched } = findJson5Node(root, segments);
  if (matched < segments.length) return setInText({ text, segments, value: [value] });
  if (node.kind !== "array") {
    const kind = node.kind === "object" ? "an object" : `a ${node.kind}`;
    return { ok: false, error: `${formatConfigPath(segments)} is ${kind}, not an array` };
  }
  const layout = detectLayout(text, root);
  const render = (indent: string, compact: boolean): string =>
    serializeJson5(value, { indent, ...layout, compact });
  return { ok: true, text: insertChild({ text, container: node, layout, render }) };
}

/** Deletes the member or element at `segments`; an error when the main text does not hold it. */
export function deleteInText(edit: TextEdit): SpliceResult {
  const { text, segments } = edit;
  const root = parseRoot(text);
  if (typeof root === "string") return { ok: false, error: root };
  const parent = findJson5Node(root, segments.slice(0, -1));
  const last = segments[segments.length - 1];
  const keys = (parent.node.children ?? []).map((child) => child.key);
  const index = parent.matched === segments.length - 1 ? keys.lastIndexOf(last) : -1;
  if (index < 0)
    return { ok: false, error: `${formatConfigPath(segments)} is not set in this file` };
  return { ok: true, text: removeChild({ text, container: parent.node, index }) };
}
