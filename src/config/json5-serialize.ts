// Serializes values for splicing into a JSON5 config file: double-quoted strings, keys quoted only when
// needed (or always, for files written in strict-JSON style), no trailing commas.

/** Layout for {@link serializeJson5}. */
export interface SerializeOptions {
  /** Indentation of the line the value starts on. */
  indent: string;
  /** One indentation step (`"  "`, `"\t"`). */
  unit: string;
  /** Quote every key (the file uses JSON style), not only those that need it. */
  quoteKeys: boolean;
  /** Write everything on one line (for values inside single-line objects). */
  compact?: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A key as written in the file: bare when it is an identifier (unless quoting is forced). */
export function formatJson5Key(key: string, quoteKeys: boolean): string {
  return !quoteKeys && IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

function scalar(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "NaN";
    if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
    return String(value);
  }
  if (typeof value === "boolean") return String(value);
  if (typeof value === "bigint") return value.toString();
  return "null";
}

/** Serializes `value` as JSON5 text laid out for the given indentation. */
export function serializeJson5(value: unknown, options: SerializeOptions): string {
  const { unit, quoteKeys, compact } = options;
  const write = (current: unknown, indent: string): string => {
    if (Array.isArray(current)) {
      if (current.length === 0) return "[]";
      const inner = indent + unit;
      if (compact) return `[${current.map((item) => write(item, inner)).join(", ")}]`;
      return `[\n${current.map((item) => inner + write(item, inner)).join(",\n")}\n${indent}]`;
    }
    if (typeof current === "object" && current !== null) {
      const entries = Object.entries(current).filter(([, child]) => child !== undefined);
      if (entries.length === 0) return "{}";
      const inner = indent + unit;
      const members = entries.map(
        ([key, child]) => `${formatJson5Key(key, quoteKeys)}: ${write(child, inner)}`,
      );
      if (compact) return `{ ${members.join(", ")} }`;
      return `{\n${members.map((member) => inner + member).join(",\n")}\n${indent}}`;
    }
    return scalar(current);
  };
  return write(value, options.indent);
}
