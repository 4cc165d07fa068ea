// JSON Lines parsing shared by transcripts and the index journal. A crash mid-append leaves a torn
// last line; it is reported and ignored, never fatal. A corrupt line in the middle is reported and skipped.

/** One problem found while parsing; `line` is 1-based. */
export interface JsonLineIssue {
  line: number;
  kind: "corrupt-line" | "torn-tail";
  message: string;
}

/** One parsed line and its 1-based line number. */
export interface JsonLineRecord {
  line: number;
  value: unknown;
}

/** Parse result; `validBytes` is where the next append may safely start. */
export interface JsonLinesResult {
  records: JsonLineRecord[];
  issues: JsonLineIssue[];
  /** Length of the prefix made of whole lines (a torn tail is excluded). */
  validBytes: number;
  /** True when the valid prefix does not end with a newline (a complete last line without `\n`). */
  needsNewline: boolean;
}

const NEWLINE = 0x0a;

function parseLine(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

/** Parses a JSONL buffer line by line; bad lines become issues instead of exceptions. */
export function parseJsonLines(buffer: Uint8Array): JsonLinesResult {
  const buf = Buffer.isBuffer(buffer) ? buffer : Buffer.from(buffer);
  const records: JsonLineRecord[] = [];
  const issues: JsonLineIssue[] = [];
  let start = 0;
  let line = 0;
  let validBytes = 0;
  while (start < buf.length) {
    const end = buf.indexOf(NEWLINE, start);
    line += 1;
    if (end === -1) {
      // The last line has no newline: complete JSON is kept, anything else is a torn write.
      const text = buf.toString("utf8", start).trim();
      if (text === "") break;
      const parsed = parseLine(text);
      if (parsed.ok) {
        records.push({ line, value: parsed.value });
        validBytes = buf.length;
        return { records, issues, validBytes, needsNewline: true };
      }
      issues.push({
        line,
        kind: "torn-tail",
        message: `incomplete last line (${buf.length - start} bytes) ignored`,
      });
      break;
    }
    const text = buf.toString("utf8", start, end).trim();
    if (text !== "") {
      const parsed = parseLine(text);
      if (parsed.ok) records.push({ line, value: parsed.value });
      else issues.push({ line, kind: "corrupt-line", message: parsed.message });
    }
    start = end + 1;
    validBytes = start;
  }
  return { records, issues, validBytes, needsNewline: false };
}

/** True for a plain JSON object (not an array or null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
