// Parser of the `*** Begin Patch` format (the one OpenAI models emit for apply_patch): Add / Delete / Update
// File sections, optional `*** Move to:`, `@@` hunks with ' ', '-', '+' lines and `*** End of File`.
import { ToolError } from "./types.js";

/** One hunk of an update: lines to find (context + removed) and what replaces them. */
export interface PatchChunk {
  /** Text after `@@ `: a line to find before the hunk (e.g. a function signature). */
  anchor?: string;
  oldLines: string[];
  newLines: string[];
  /** The hunk ends at the end of the file (`*** End of File`). */
  endOfFile: boolean;
}

/** One file operation of a patch. */
export type PatchOperation =
  | { kind: "add"; path: string; content: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo?: string; chunks: PatchChunk[] };

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const EOF_MARK = "*** End of File";

function fail(lineNo: number, message: string): never {
  throw new ToolError(`Invalid patch (line ${lineNo}): ${message}`);
}

function isHeader(line: string): boolean {
  return line.startsWith("*** ") && line !== EOF_MARK;
}

/** Lines between the Begin/End markers (surrounding blank lines and a heredoc wrapper tolerated). */
function patchBody(text: string): { lines: string[]; firstLineNo: number } {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const begin = lines.findIndex((line) => line.trim() === BEGIN);
  if (begin === -1) throw new ToolError(`Invalid patch: the first line must be "${BEGIN}".`);
  let end = -1;
  for (let i = lines.length - 1; i > begin; i--) {
    if (lines[i].trim() === END) {
      end = i;
      break;
    }
  }
  if (end === -1) throw new ToolError(`Invalid patch: the last line must be "${END}".`);
  return { lines: lines.slice(begin + 1, end), firstLineNo: begin + 2 };
}

interface UpdateCursor {
  lines: string[];
  start: number;
  lineNo: (i: number) => number;
}

function parseUpdate({ lines, start, lineNo }: UpdateCursor) {
  const chunks: PatchChunk[] = [];
  let current: PatchChunk | undefined;
  let i = start;
  for (; i < lines.length && !isHeader(lines[i]); i++) {
    const line = lines[i];
    if (line.startsWith("@@")) {
      const anchor = line.slice(2).trim();
      current = { ...(anchor ? { anchor } : {}), oldLines: [], newLines: [], endOfFile: false };
      chunks.push(current);
      continue;
    }
    if (!current) {
      current = { oldLines: [], newLines: [], endOfFile: false };
      chunks.push(current);
    }
    if (line === EOF_MARK) {
      current.endOfFile = true;
      continue;
    }
    const marker = line.charAt(0);
    const body = line.slice(1);
    if (marker === " " || line === "") {
      current.oldLines.push(body);
      current.newLines.push(body);
    } else if (marker === "-") current.oldLines.push(body);
    else if (marker === "+") current.newLines.push(body);
    else fail(lineNo(i), `hunk lines must start with ' ', '-' or '+', got "${line}".`);
  }
  const real = chunks.filter((chunk) => chunk.oldLines.length > 0 || chunk.newLines.length > 0);
  if (real.length === 0) fail(lineNo(start - 1), "an Update File section needs at least one hunk.");
  return { chunks: real, next: i };
}

/** Parses a patch into file operations; throws a {@link ToolError} naming the bad line. */
export function parsePatch(text: string): PatchOperation[] {
  const { lines, firstLineNo } = patchBody(text);
  const lineNo = (i: number) => firstLineNo + i;
  const ops: PatchOperation[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
    } else if (line.startsWith(ADD)) {
      const path = line.slice(ADD.length).trim();
      const content: string[] = [];
      for (i++; i < lines.length && !isHeader(lines[i]); i++) {
        if (!lines[i].startsWith("+"))
          fail(lineNo(i), `lines of an added file must start with '+'.`);
        content.push(lines[i].slice(1));
      }
      ops.push({ kind: "add", path, content: content.length ? `${content.join("\n")}\n` : "" });
    } else if (line.startsWith(DELETE)) {
      ops.push({ kind: "delete", path: line.slice(DELETE.length).trim() });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const path = line.slice(UPDATE.length).trim();
      i++;
      let moveTo: string | undefined;
      if (lines[i]?.startsWith(MOVE)) {
        moveTo = lines[i].slice(MOVE.length).trim();
        i++;
      }
      const { chunks, next } = parseUpdate({ lines, start: i, lineNo });
      ops.push({ kind: "update", path, ...(moveTo ? { moveTo } : {}), chunks });
      i = next;
    } else {
      fail(lineNo(i), `expected "${ADD}", "${DELETE}" or "${UPDATE}", got "${line}".`);
    }
  }
  if (ops.length === 0) throw new ToolError("Invalid patch: it contains no file operations.");
  for (const op of ops)
    if (op.path === "") throw new ToolError("Invalid patch: a file path is empty.");
  return ops;
}
