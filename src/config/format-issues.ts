// Human and JSON renderings of config issues, for `pincer config validate` (and `--json`).
import { dirname, isAbsolute, relative } from "node:path";
import type { ConfigIssue } from "./config-issue.js";

/** What the formatters need: the issues, the main config path, and validity (default: no errors). */
export interface IssueReport {
  valid?: boolean;
  issues: readonly ConfigIssue[];
  path?: string;
}

/** Options for {@link formatConfigIssues}. */
export interface FormatIssuesOptions {
  /** Use ANSI colours (red errors, yellow warnings, dim positions). */
  color?: boolean;
}

const ANSI = {
  red: "\u001b[31m",
  yellow: "\u001b[33m",
  dim: "\u001b[2m",
  bold: "\u001b[1m",
  reset: "\u001b[0m",
};

function displayFile(file: string, mainPath: string | undefined): string {
  if (!mainPath) return file;
  const rel = relative(dirname(mainPath), file);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : file;
}

function position(issue: ConfigIssue, mainPath: string | undefined): string {
  if (!issue.file) return "";
  const line = issue.line !== undefined ? `:${issue.line}` : "";
  const column = issue.line !== undefined && issue.column !== undefined ? `:${issue.column}` : "";
  return `${displayFile(issue.file, mainPath)}${line}${column}`;
}

/** Orders issues main file first, then by file, line and column; unlocated issues go last. */
function byPosition(mainPath: string | undefined): (a: ConfigIssue, b: ConfigIssue) => number {
  const rank = (file: string): string => (file === mainPath ? "" : file);
  return (a, b) => {
    if (!a.file || !b.file) return a.file ? -1 : b.file ? 1 : 0;
    if (a.file !== b.file) return rank(a.file) < rank(b.file) ? -1 : 1;
    return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
  };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** Renders issues as lines like `✖ openclaw.json:12:5  agents.list[1].agentDir  message`, errors first. */
export function formatConfigIssues(report: IssueReport, options: FormatIssuesOptions = {}): string {
  const paint = (code: string, text: string): string =>
    options.color ? `${code}${text}${ANSI.reset}` : text;
  const errors = report.issues.filter((issue) => issue.severity === "error");
  const warnings = report.issues.filter((issue) => issue.severity === "warning");
  const valid = report.valid ?? errors.length === 0;
  const lines: string[] = [];
  if (!valid && report.path) lines.push(paint(ANSI.bold, `Config is invalid: ${report.path}`));
  for (const issue of [
    ...errors.sort(byPosition(report.path)),
    ...warnings.sort(byPosition(report.path)),
  ]) {
    const mark = issue.severity === "error" ? paint(ANSI.red, "✖") : paint(ANSI.yellow, "⚠");
    const where = position(issue, report.path);
    const parts = [
      mark,
      where ? paint(ANSI.dim, where) : "",
      issue.path || "(root)",
      issue.message,
    ];
    lines.push(
      parts
        .filter((part) => part !== "")
        .join("  ")
        .replace(/^(\S+) {2}/, "$1 "),
    );
  }
  const summary = `${plural(errors.length, "error")}, ${plural(warnings.length, "warning")}`;
  const target = report.path ? ` in ${report.path}` : "";
  lines.push(valid ? `Config is valid${target} (${summary})` : `${summary}${target}`);
  return lines.join("\n");
}

/** The `--json` shape: `{ valid, path, issues }`. */
export function configIssuesToJson(report: IssueReport): {
  valid: boolean;
  path: string | undefined;
  issues: ConfigIssue[];
} {
  const valid = report.valid ?? !report.issues.some((issue) => issue.severity === "error");
  return { valid, path: report.path, issues: [...report.issues] };
}
