// Text rendering of a context report: `list` is OpenClaw's `/context list` (totals per category
// and per file), `detail` adds every prompt section, tool schema (largest first) and skill.
import { tokensForChars } from "../lib/token-estimate.js";
import type { ContextReport } from "./context-report.js";

/** Options of {@link formatContextReport}. */
export interface FormatContextReportOptions {
  /** False for `/context list`, true for `/context detail`. */
  detail: boolean;
}

type Align = "l" | "r";

/** Integer with thousands separators, locale-independent so output is the same everywhere. */
export function formatCount(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function chars(count: number): string {
  return `${formatCount(count)} chars`;
}

function tokens(count: number): string {
  return `~${formatCount(tokensForChars(count))} tok`;
}

function plural(count: number, word: string): string {
  return `${formatCount(count)} ${word}${count === 1 ? "" : "s"}`;
}

/** Lays rows out in aligned columns, two spaces apart, indented by two. */
function table(rows: string[][], align: Align[]): string[] {
  const widths = align.map((_, column) =>
    Math.max(0, ...rows.map((row) => (row[column] ?? "").length)),
  );
  return rows.map((row) => {
    const cells = row.map((cell, column) =>
      align[column] === "r" ? cell.padStart(widths[column]) : cell.padEnd(widths[column]),
    );
    return `  ${cells.join("  ")}`.trimEnd();
  });
}

function header(report: ContextReport): string {
  const session = report.sessionKey ? `, session ${report.sessionKey}` : "";
  return `Context for agent ${report.agentId}${session} (model ${report.model}, prompt mode ${report.mode})`;
}

function summary(report: ContextReport): string[] {
  const { totals, tools, history } = report;
  const sections = report.systemPrompt.sections.length;
  return [
    "Sent each run:",
    ...table(
      [
        [
          "System prompt",
          chars(totals.systemPromptChars),
          tokens(totals.systemPromptChars),
          plural(sections, "section"),
        ],
        [
          "Tool schemas",
          chars(totals.toolSchemaChars),
          tokens(totals.toolSchemaChars),
          plural(tools.length, "tool"),
        ],
        [
          "History",
          chars(totals.historyChars),
          tokens(totals.historyChars),
          plural(history.messages, "message"),
        ],
        ["Total", chars(totals.chars), tokens(totals.chars), ""],
      ],
      ["l", "r", "r", "l"],
    ),
  ];
}

function promptParts(report: ContextReport): string[] {
  const files = report.files;
  const injected = files.reduce((sum, file) => sum + file.injectedChars, 0);
  const flags = [
    files.some((f) => f.truncated) ? `${files.filter((f) => f.truncated).length} truncated` : "",
    files.some((f) => f.missing) ? `${files.filter((f) => f.missing).length} missing` : "",
  ].filter((flag) => flag !== "");
  const listChars = report.tools.reduce((sum, tool) => sum + tool.listChars, 0);
  const fileNote = plural(files.length, "file") + (flags.length ? `: ${flags.join(", ")}` : "");
  return [
    "Inside the system prompt:",
    ...table(
      [
        ["Workspace files", chars(injected), fileNote],
        ["Skills list", chars(report.skills.chars), plural(report.skills.count, "skill")],
        ["Tool list", chars(listChars), plural(report.tools.length, "tool")],
      ],
      ["l", "r", "l"],
    ),
  ];
}

function fileStatus(file: ContextReport["files"][number]): string {
  if (file.missing) return "MISSING";
  return file.truncated ? "TRUNCATED" : "OK";
}

function fileRows(report: ContextReport): string[] {
  if (report.files.length === 0) return ["Workspace files: none injected"];
  return [
    "Workspace files (raw -> injected chars):",
    ...table(
      report.files.map((file) => [
        file.name,
        fileStatus(file),
        formatCount(file.rawChars),
        "->",
        formatCount(file.injectedChars),
      ]),
      ["l", "l", "r", "l", "r"],
    ),
  ];
}

function sectionRows(report: ContextReport): string[] {
  return [
    "System prompt sections:",
    ...table(
      report.systemPrompt.sections.map((section) => [
        section.title,
        chars(section.chars),
        tokens(section.chars),
      ]),
      ["l", "r", "r"],
    ),
  ];
}

function toolRows(report: ContextReport): string[] {
  if (report.tools.length === 0) return ["Tool schemas: none"];
  const sorted = [...report.tools].sort(
    (a, b) => b.schemaChars - a.schemaChars || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return [
    "Tool schemas (largest first):",
    ...table(
      sorted.map((tool) => [tool.name, chars(tool.schemaChars), tokens(tool.schemaChars)]),
      ["l", "r", "r"],
    ),
  ];
}

function skillRows(report: ContextReport): string[] {
  if (report.skills.entries.length === 0) return ["Skills: none listed"];
  return [
    "Skills (entries in the list):",
    ...table(
      report.skills.entries.map((skill) => [skill.name, chars(skill.chars)]),
      ["l", "r"],
    ),
  ];
}

/** Renders a report as text: the `/context list` summary, or with `detail` the full breakdown. */
export function formatContextReport(
  report: ContextReport,
  options: FormatContextReportOptions,
): string {
  const blocks: string[][] = [[header(report)], summary(report), promptParts(report)];
  blocks.push(fileRows(report));
  if (options.detail) {
    blocks.push(sectionRows(report), toolRows(report), skillRows(report));
  }
  return `${blocks.map((block) => block.join("\n")).join("\n\n")}\n`;
}
