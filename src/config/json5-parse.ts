// Parses JSON5 text with the json5 package and pairs the value with its source map; syntax errors
// become issues carrying file/line/column instead of exceptions.

import { parseJson5 } from "../lib/json5.js";
import { type ConfigIssue, makeIssue } from "./config-issue.js";
import { findTooDeep, tooDeepMessage } from "./depth-limit.js";
import { parseJson5Fast } from "./json5-fast.js";
import { type Json5Node, lineStarts, positionAt, scanJson5 } from "./json5-locate.js";

/** A parsed file: its value, node tree and line table. */
export interface ParsedJson5 {
  ok: true;
  value: unknown;
  root: Json5Node;
  starts: number[];
}

/** A file that failed to parse, with the syntax error as an issue. */
export interface FailedJson5 {
  ok: false;
  issue: ConfigIssue;
}

interface Json5SyntaxError extends SyntaxError {
  lineNumber?: number;
  columnNumber?: number;
}

function describeSyntaxError(err: Json5SyntaxError): string {
  const bare = err.message.replace(/^JSON5:\s*/, "").replace(/\s+at \d+:\d+\s*$/, "");
  return `invalid JSON5: ${bare}`;
}

/** Parses `text` (from `file`) into value + source map, or a located syntax-error issue. Text nested
 * deeper than the config depth limit is refused before parsing (everything downstream recurses). */
export function parseJson5Text(file: string, text: string): ParsedJson5 | FailedJson5 {
  const tooDeep = findTooDeep(text);
  if (tooDeep !== undefined) {
    const at = { file, ...positionAt(lineStarts(text), tooDeep) };
    return {
      ok: false,
      issue: makeIssue({ severity: "error", path: "", message: tooDeepMessage(), at }),
    };
  }
  // Common case in one pass; anything unusual (or invalid) goes the json5 way below.
  const fast = parseJson5Fast(text);
  if (fast) return { ok: true, value: fast.value, root: fast.root, starts: lineStarts(text) };
  let value: unknown;
  try {
    value = parseJson5(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    const syntax = err as Json5SyntaxError;
    const line = syntax.lineNumber ?? 1;
    const column = Math.max(1, syntax.columnNumber ?? 1);
    const message = describeSyntaxError(syntax);
    return {
      ok: false,
      issue: makeIssue({ severity: "error", path: "", message, at: { file, line, column } }),
    };
  }
  const root = scanJson5(text);
  if (!root) {
    const at = { file, line: 1, column: 1 };
    return {
      ok: false,
      issue: makeIssue({ severity: "error", path: "", message: "the file is empty", at }),
    };
  }
  return { ok: true, value, root, starts: lineStarts(text) };
}
