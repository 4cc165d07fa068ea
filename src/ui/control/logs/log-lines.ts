// Reading the gateway's log lines as `logs.tail` serves them (`<ISO time> <level> <msg> {fields}`,
// log-ring.ts): the level of a line, the level filter ("this level and above") and the text filter.

/** Levels from least to most severe (pino's names). */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;

/** A level name. */
export type LogLevel = (typeof LOG_LEVELS)[number];

const LINE = /^\S+\s+(trace|debug|info|warn|error|fatal)\b/;

/** The level of a line, or undefined when it does not start with one after the time. */
export function lineLevel(line: string): LogLevel | undefined {
  return LINE.exec(line)?.[1] as LogLevel | undefined;
}

/** Whether `value` names a level. */
export function isLogLevel(value: string | null | undefined): value is LogLevel {
  return LOG_LEVELS.includes(value as LogLevel);
}

/** Lines at `minLevel` or above (lines without a level pass) containing `text` (any case). */
export function filterLines(
  lines: readonly string[],
  filter: { minLevel: LogLevel | undefined; text: string },
): string[] {
  const min = filter.minLevel ? LOG_LEVELS.indexOf(filter.minLevel) : 0;
  const needle = filter.text.trim().toLowerCase();
  return lines.filter((line) => {
    const level = lineLevel(line);
    if (level && LOG_LEVELS.indexOf(level) < min) return false;
    return needle === "" || line.toLowerCase().includes(needle);
  });
}

/** Appends `added` to `lines`, keeping at most `max` (the newest). */
export function appendBounded(lines: readonly string[], added: readonly string[], max: number) {
  const all = [...lines, ...added];
  return all.length > max ? all.slice(all.length - max) : all;
}
