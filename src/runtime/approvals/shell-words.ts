// A deliberately small parser of POSIX `sh -c` commands for the allowlist: it splits simple
// commands joined by `|`, `&&`, `||`, `;` or newlines into words, and refuses (a miss) anything
// whose effect it cannot see: command substitution, variables, redirections, background `&`,
// subshells and groups, comments, environment assignments, here-docs, line continuations, keywords.

/** One word of a simple command: its text with quotes removed, and whether it would be glob-expanded. */
export interface ShellWord {
  text: string;
  /** An unquoted `*`, `?` or `[` (the shell would expand it to file names). */
  glob: boolean;
  /** Starts with an unquoted `~` (tilde expansion). */
  tilde: boolean;
}

/** The simple commands of a command line, or why it cannot be checked safely. */
export type ParsedCommand = { ok: true; segments: ShellWord[][] } | { ok: false; reason: string };

const KEYWORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "function",
  "select",
  "!",
  "[[",
  "]]",
  "{",
  "}",
]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

interface Cursor {
  segments: ShellWord[][];
  words: ShellWord[];
  word: ShellWord | undefined;
}

function endWord(c: Cursor): void {
  if (c.word) c.words.push(c.word);
  c.word = undefined;
}

function endSegment(c: Cursor, separator: string): string | undefined {
  endWord(c);
  if (c.words.length === 0) return `an empty command before "${separator}"`;
  c.segments.push(c.words);
  c.words = [];
  return undefined;
}

function current(c: Cursor, quoted: boolean, ch: string): ShellWord {
  c.word ??= { text: "", glob: false, tilde: !quoted && ch === "~" };
  return c.word;
}

/** Reads a double-quoted string starting after its `"`; returns the index after the closing quote. */
function readDoubleQuoted(command: string, start: number, word: ShellWord): number | string {
  let i = start;
  while (i < command.length) {
    const ch = command[i]!;
    if (ch === '"') return i + 1;
    if (ch === "$" || ch === "`") return "command substitution or a variable inside double quotes";
    if (ch === "\\" && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) {
      word.text += command[i + 1];
      i += 2;
      continue;
    }
    word.text += ch;
    i++;
  }
  return "an unterminated double quote";
}

const REFUSED: Record<string, string> = {
  $: "a variable or command substitution ($)",
  "`": "command substitution (`)",
  "<": "a redirection (<)",
  ">": "a redirection (>)",
  "(": "a subshell or function ( )",
  ")": "a subshell or function ( )",
  "{": "a brace group or expansion ({ })",
  "}": "a brace group or expansion ({ })",
};

/** Splits `command` into simple commands (see the file comment); every refusal names its cause. */
export function parseShellCommand(command: string): ParsedCommand {
  const c: Cursor = { segments: [], words: [], word: undefined };
  let i = 0;
  while (i < command.length) {
    const ch = command[i]!;
    const next = command[i + 1];
    if (ch === " " || ch === "\t") {
      endWord(c);
      i++;
    } else if (ch === "'") {
      const close = command.indexOf("'", i + 1);
      if (close < 0) return { ok: false, reason: "an unterminated single quote" };
      current(c, true, ch).text += command.slice(i + 1, close);
      i = close + 1;
    } else if (ch === '"') {
      const after = readDoubleQuoted(command, i + 1, current(c, true, ch));
      if (typeof after === "string") return { ok: false, reason: after };
      i = after;
    } else if (ch === "\\") {
      if (next === undefined || next === "\n") return { ok: false, reason: "a line continuation" };
      current(c, true, ch).text += next;
      i += 2;
    } else if (ch === "|" || ch === "&" || ch === ";" || ch === "\n") {
      const pair = ch + (next ?? "");
      const separator = pair === "&&" || pair === "||" ? pair : ch;
      if (separator === "&") return { ok: false, reason: "a background command (&)" };
      if (pair === "|&" || pair === ";;") return { ok: false, reason: `"${pair}"` };
      const error = endSegment(c, separator);
      if (error) return { ok: false, reason: error };
      i += separator.length;
    } else if (REFUSED[ch]) {
      return { ok: false, reason: REFUSED[ch]! };
    } else if (ch === "#" && c.word === undefined) {
      return { ok: false, reason: "a comment (#)" };
    } else {
      const word = current(c, false, ch);
      if (ch === "*" || ch === "?" || ch === "[") word.glob = true;
      word.text += ch;
      i++;
    }
  }
  endWord(c);
  if (c.words.length === 0) {
    return { ok: false, reason: c.segments.length ? "a trailing separator" : "an empty command" };
  }
  c.segments.push(c.words);
  for (const words of c.segments) {
    const first = words[0]!;
    if (ASSIGNMENT.test(first.text))
      return { ok: false, reason: `an environment assignment (${first.text.split("=")[0]}=)` };
    if (KEYWORDS.has(first.text)) return { ok: false, reason: `the shell keyword "${first.text}"` };
  }
  return { ok: true, segments: c.segments };
}
