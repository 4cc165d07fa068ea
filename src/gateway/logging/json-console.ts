// The JSON-only console of `pincer gateway run --json`: records shaped like pino's, and a sink that
// turns any text that is not a JSON record into one.

/** Builds one console record as a JSON line (no newline), in the shape pino writes. */
export function consoleRecordLine(params: {
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
  now: () => number;
  pid: number;
}): string {
  const { level, msg, fields, now, pid } = params;
  return JSON.stringify({ level, time: new Date(now()).toISOString(), pid, ...fields, msg });
}

function isJsonRecord(line: string): boolean {
  if (!line.startsWith("{") || !line.endsWith("}")) return false;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    // Looks like an object but is not JSON: it gets wrapped like any other text line.
    return false;
  }
}

// ANSI escape sequences (colours): never part of a wrapped message.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/**
 * Wraps a text sink so everything written through it is JSON lines: a line that already is a JSON
 * object passes through; any other line becomes a record with `level` and the text as `msg`.
 */
export function jsonLinesSink(params: {
  write: (text: string) => void;
  level: string;
  now: () => number;
  pid: number;
}): (text: string) => void {
  return (text) => {
    for (const raw of text.split("\n")) {
      const line = raw.replace(ANSI, "").trimEnd();
      if (!line.trim()) continue;
      params.write(`${isJsonRecord(line) ? line : consoleRecordLine({ ...params, msg: line })}\n`);
    }
  };
}
