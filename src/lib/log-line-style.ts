// The look of a human log line, shared by the gateway's console and `pincer logs`: the coloured level
// label, dimmed time and fields, and `key=value` field text (quoted when it has spaces, quotes or `=`).

const LEVEL_COLORS: Record<string, number> = {
  fatal: 35,
  error: 31,
  warn: 33,
  info: 36,
  debug: 90,
  trace: 90,
};

/** `INFO ` padded to 5, coloured by level when `color`. */
export function levelLabel(level: string, color: boolean): string {
  const text = level.toUpperCase().padEnd(5);
  return color ? `\u001b[${LEVEL_COLORS[level] ?? 39}m${text}\u001b[39m` : text;
}

/** `text` dimmed when `color`. */
export function dimText(text: string, color: boolean): string {
  return color ? `\u001b[2m${text}\u001b[22m` : text;
}

/** One field's value as it follows `key=`; a value JSON cannot render says so instead of throwing. */
export function fieldText(value: unknown): string {
  if (typeof value === "string") return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch (err) {
    return `[unserializable: ${err instanceof Error ? err.message : String(err)}]`;
  }
}
