// The Config page's raw JSON5 editor: a textarea with a line-number gutter whose lines with an
// error are marked, and the list of issues (line, column, key path, message) under it.
import { html, nothing } from "lit";

/** A config issue as the gateway reports it (src/config/config-issue.ts). */
export interface ConfigIssue {
  severity: "error" | "warning";
  path: string;
  message: string;
  line?: number;
  column?: number;
}

/** Where an issue stands, for people: `line 3, column 11 · gateway.port`. */
export function issuePlace(issue: ConfigIssue): string {
  const at =
    issue.line !== undefined
      ? `line ${issue.line}${issue.column ? `, column ${issue.column}` : ""}`
      : "";
  return [at, issue.path].filter(Boolean).join(" · ") || "the file";
}

/** Renders the editor; `onInput` gets the text on every change. */
export function renderRawEditor(params: {
  text: string;
  issues: readonly ConfigIssue[];
  onInput: (text: string) => void;
}) {
  const lines = params.text.split("\n").length;
  const bad = new Set(params.issues.map((i) => i.line).filter((l): l is number => l !== undefined));
  const gutter = Array.from({ length: lines }, (_, i) => i + 1);
  return html`<div class="raw-editor">
      <pre class="gutter" aria-hidden="true">${gutter.map(
        (n) => html`<span class=${bad.has(n) ? "bad" : ""}>${n}</span>\n`,
      )}</pre>
      <textarea id="cfg-raw" spellcheck="false" wrap="off" aria-label="Config file (JSON5)"
        aria-invalid=${bad.size > 0 ? "true" : "false"} aria-describedby="cfg-raw-issues"
        .value=${params.text}
        @input=${(e: Event) => params.onInput((e.target as HTMLTextAreaElement).value)}
        @scroll=${(e: Event) => {
          const area = e.target as HTMLTextAreaElement;
          const pre = area.previousElementSibling as HTMLElement | null;
          if (pre) pre.scrollTop = area.scrollTop;
        }}></textarea>
    </div>
    <ul id="cfg-raw-issues" class="cfg-issues">${
      params.issues.length === 0
        ? nothing
        : params.issues.map(
            (i) => html`<li class=${i.severity === "error" ? "error" : "muted"}>
              <strong>${issuePlace(i)}</strong>: ${i.message}</li>`,
          )
    }</ul>`;
}
