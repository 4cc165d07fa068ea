// The config loader's fast path: a one-pass JSON5 reader that builds the value and the
// source-position tree together, without loading the json5 package. It is strict and gives up
// (returns undefined) on anything unusual — non-ASCII outside strings, rare escapes, syntax
// errors — and the caller then uses `lib/json5.ts`, whose errors name line and column.
// Why it exists: reading a typical 1.8 KB openclaw.json (3 agents, telegram, bindings) in a fresh
// process takes ~2 ms here against ~34 ms for loading json5 + parsing + scanJson5 (median of 15
// cold runs, Node 20); every CLI command and gateway start pays that once.
import type { Json5Node } from "./json5-locate.js";

/** The value and node tree of a JSON5 text, as `JSON5.parse` + `scanJson5` would give them. */
export interface FastJson5 {
  value: unknown;
  root: Json5Node;
}

/** Thrown internally to abandon the fast path; never escapes this module. */
class GiveUp extends Error {}

const NUMBER =
  /^[+-]?(?:Infinity|NaN|0[xX][0-9a-fA-F]+|(?:0|[1-9]\d*)(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)$/;
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "'": "'",
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

function isIdentStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === 36;
}

function isIdentPart(code: number): boolean {
  return isIdentStart(code) || (code >= 48 && code <= 57);
}

class Reader {
  index = 0;
  constructor(readonly text: string) {}

  /** Skips ASCII whitespace and comments; gives up on any other character class. */
  skipTrivia(): void {
    const { text } = this;
    while (this.index < text.length) {
      const code = text.charCodeAt(this.index);
      if (code === 32 || code === 10 || code === 13 || code === 9 || code === 11 || code === 12) {
        this.index++;
      } else if (code === 47 && text.charCodeAt(this.index + 1) === 47) {
        while (this.index < text.length) {
          const c = text.charCodeAt(this.index);
          if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) break;
          this.index++;
        }
      } else if (code === 47 && text.charCodeAt(this.index + 1) === 42) {
        const close = text.indexOf("*/", this.index + 2);
        if (close < 0) throw new GiveUp();
        this.index = close + 2;
      } else if (code === 0xfeff && this.index === 0) {
        this.index++;
      } else {
        return;
      }
    }
  }

  readString(): string {
    const { text } = this;
    const quote = text[this.index];
    let out = "";
    let runStart = ++this.index;
    while (this.index < text.length) {
      const char = text[this.index];
      if (char === quote) {
        out += text.slice(runStart, this.index++);
        return out;
      }
      if (char === "\n" || char === "\r") throw new GiveUp();
      if (char === "\\") {
        out += text.slice(runStart, this.index);
        out += this.readEscape();
        runStart = this.index;
      } else {
        this.index++;
      }
    }
    throw new GiveUp();
  }

  private readEscape(): string {
    const next = this.text[this.index + 1];
    const simple = next === undefined ? undefined : SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      this.index += 2;
      return simple;
    }
    if (next === "u") {
      const hex = this.text.slice(this.index + 2, this.index + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new GiveUp();
      this.index += 6;
      return String.fromCharCode(Number.parseInt(hex, 16));
    }
    // \x, \0, line continuations and the rest are rare in configs: leave them to json5.
    throw new GiveUp();
  }

  readKey(): string {
    const { text } = this;
    const code = text.charCodeAt(this.index);
    if (code === 34 || code === 39) return this.readString();
    if (!isIdentStart(code)) throw new GiveUp();
    const start = this.index++;
    while (this.index < text.length && isIdentPart(text.charCodeAt(this.index))) this.index++;
    const next = text.charCodeAt(this.index);
    if (next === 92 || next > 127) throw new GiveUp();
    return text.slice(start, this.index);
  }

  readWord(): string {
    const { text } = this;
    const start = this.index;
    while (this.index < text.length) {
      const code = text.charCodeAt(this.index);
      if (isIdentPart(code) || code === 43 || code === 45 || code === 46) this.index++;
      else break;
    }
    return text.slice(start, this.index);
  }
}

function readNumber(word: string): number {
  if (!NUMBER.test(word)) throw new GiveUp();
  const sign = word[0] === "-" ? -1 : 1;
  const body = word[0] === "-" || word[0] === "+" ? word.slice(1) : word;
  return sign * Number(body);
}

function readValue(reader: Reader): { value: unknown; node: Json5Node } {
  const start = reader.index;
  const char = reader.text[start];
  if (char === "{") return readObject(reader);
  if (char === "[") return readArray(reader);
  if (char === '"' || char === "'") {
    const value = reader.readString();
    return { value, node: { kind: "string", start, end: reader.index } };
  }
  const word = reader.readWord();
  const end = reader.index;
  if (word === "true" || word === "false") {
    return { value: word === "true", node: { kind: "boolean", start, end } };
  }
  if (word === "null") return { value: null, node: { kind: "null", start, end } };
  return { value: readNumber(word), node: { kind: "number", start, end } };
}

function readObject(reader: Reader): { value: unknown; node: Json5Node } {
  const start = reader.index++;
  const value: Record<string, unknown> = {};
  const children: NonNullable<Json5Node["children"]> = [];
  reader.skipTrivia();
  while (reader.text[reader.index] !== "}") {
    const keyStart = reader.index;
    const key = reader.readKey();
    reader.skipTrivia();
    if (reader.text[reader.index] !== ":") throw new GiveUp();
    reader.index++;
    reader.skipTrivia();
    const child = readValue(reader);
    child.node.keyStart = keyStart;
    // defineProperty keeps "__proto__" an own data key, as json5 does.
    Object.defineProperty(value, key, {
      value: child.value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    children.push({ key, node: child.node });
    reader.skipTrivia();
    const next = reader.text[reader.index];
    if (next === ",") {
      reader.index++;
      reader.skipTrivia();
    } else if (next !== "}") {
      throw new GiveUp();
    }
  }
  reader.index++;
  return { value, node: { kind: "object", start, end: reader.index, children } };
}

function readArray(reader: Reader): { value: unknown; node: Json5Node } {
  const start = reader.index++;
  const value: unknown[] = [];
  const children: NonNullable<Json5Node["children"]> = [];
  reader.skipTrivia();
  while (reader.text[reader.index] !== "]") {
    const child = readValue(reader);
    children.push({ key: value.length, node: child.node });
    value.push(child.value);
    reader.skipTrivia();
    const next = reader.text[reader.index];
    if (next === ",") {
      reader.index++;
      reader.skipTrivia();
    } else if (next !== "]") {
      throw new GiveUp();
    }
  }
  reader.index++;
  return { value, node: { kind: "array", start, end: reader.index, children } };
}

/** Reads `text` in one pass, or returns undefined when the json5 package must decide. */
export function parseJson5Fast(text: string): FastJson5 | undefined {
  const reader = new Reader(text);
  try {
    reader.skipTrivia();
    if (reader.index >= text.length) return undefined;
    const { value, node } = readValue(reader);
    reader.skipTrivia();
    return reader.index === text.length ? { value, root: node } : undefined;
  } catch (err) {
    // GiveUp means "not the common case" (or not valid): the json5 path decides and explains.
    if (err instanceof GiveUp) return undefined;
    throw err;
  }
}
