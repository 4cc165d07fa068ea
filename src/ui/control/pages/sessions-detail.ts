// The Sessions page's panel for one session: its facts, a preview of the last messages
// (`sessions.preview`), Reset / Compact / Delete (Delete asks to confirm first), and the
// per-session overrides (model, thinking, verbose, queue mode) saved through `sessions.patch`.
import { html, nothing, type TemplateResult } from "lit";
import {
  channelOf,
  modelOverrideOf,
  QUEUE_MODES,
  type SessionRow,
  THINKING_LEVELS,
  tokensOf,
  VERBOSE_LEVELS,
} from "./sessions-model.js";

/** One previewed message. */
export interface PreviewItem {
  role: string;
  text: string;
}

/** The preview of the selected session: loading, or what `sessions.preview` said. */
export type PreviewState =
  | { status: "loading" }
  | { status: "ok" | "empty" | "missing"; items: PreviewItem[] }
  | { status: "error"; message: string };

/** The overrides as the form holds them ("" = the default, i.e. no override). */
export interface OverrideValues {
  model: string;
  thinkingLevel: string;
  verboseLevel: string;
  queueMode: string;
}

/** What the panel needs: the session, its preview, the known models and the handlers. */
export interface SessionDetailParams {
  row: SessionRow;
  preview: PreviewState;
  models: readonly string[];
  confirmingDelete: boolean;
  busy: boolean;
  onReset: () => void;
  onCompact: () => void;
  onDelete: (confirmed: boolean) => void;
  onCancelDelete: () => void;
  onPatch: (values: OverrideValues) => void;
  onClose: () => void;
}

/** The `sessions.patch` params that turn `row`'s overrides into `values` (null clears one). */
export function patchParams(row: SessionRow, values: OverrideValues): Record<string, unknown> {
  const current: OverrideValues = {
    model: modelOverrideOf(row),
    thinkingLevel: row.thinkingLevel ?? "",
    verboseLevel: row.verboseLevel ?? "",
    queueMode: row.queueMode ?? "",
  };
  const params: Record<string, unknown> = { key: row.key };
  for (const name of Object.keys(values) as Array<keyof OverrideValues>) {
    if (values[name] !== current[name]) params[name] = values[name] === "" ? null : values[name];
  }
  return params;
}

function previewList(preview: PreviewState): TemplateResult {
  switch (preview.status) {
    case "loading":
      return html`<p class="muted">Loading the preview…</p>`;
    case "error":
      return html`<p class="error">Preview failed: ${preview.message}</p>`;
    case "missing":
    case "empty":
      return html`<p class="muted">No messages yet.</p>`;
    case "ok":
      return html`<ol class="preview">
        ${preview.items.map(
          (item) =>
            html`<li class=${`preview-${item.role}`}><strong>${item.role}</strong> ${item.text}</li>`,
        )}
      </ol>`;
  }
}

function choice(params: {
  name: keyof OverrideValues;
  label: string;
  value: string;
  options: readonly string[];
}): TemplateResult {
  const known = params.value === "" || params.options.includes(params.value);
  return html`<label>
    ${params.label}
    <select name=${params.name}>
      <option value="" ?selected=${params.value === ""}>Default</option>
      ${known ? nothing : html`<option value=${params.value} selected>${params.value}</option>`}
      ${params.options.map(
        (option) =>
          html`<option value=${option} ?selected=${option === params.value}>${option}</option>`,
      )}
    </select>
  </label>`;
}

function submitOverrides(event: SubmitEvent, onPatch: (values: OverrideValues) => void): void {
  event.preventDefault();
  const data = new FormData(event.currentTarget as HTMLFormElement);
  const read = (name: string) => String(data.get(name) ?? "");
  onPatch({
    model: read("model"),
    thinkingLevel: read("thinkingLevel"),
    verboseLevel: read("verboseLevel"),
    queueMode: read("queueMode"),
  });
}

function actions(params: SessionDetailParams): TemplateResult {
  if (params.confirmingDelete) {
    return html`<div class="toolbar" role="group" aria-label="Confirm delete">
      <span class="warn-text">Delete ${params.row.key} and archive its transcript?</span>
      <button type="button" class="danger" ?disabled=${params.busy} @click=${() => params.onDelete(true)}>
        Confirm delete
      </button>
      <button type="button" @click=${params.onCancelDelete}>Cancel</button>
    </div>`;
  }
  return html`<div class="toolbar" role="group" aria-label="Session actions">
    <button type="button" ?disabled=${params.busy} @click=${params.onReset}>Reset</button>
    <button type="button" ?disabled=${params.busy} @click=${params.onCompact}>Compact</button>
    <button type="button" class="danger" ?disabled=${params.busy} @click=${() => params.onDelete(false)}>
      Delete…
    </button>
  </div>`;
}

/** The panel of the selected session. */
export function sessionDetail(params: SessionDetailParams): TemplateResult {
  const { row } = params;
  return html`<section class="card session-detail" aria-labelledby="session-detail-title">
    <header class="toolbar">
      <h2 id="session-detail-title">${row.key}</h2>
      <button type="button" class="quiet" aria-label="Close the session panel" @click=${params.onClose}>✕</button>
    </header>
    <dl class="facts">
      <dt>Agent</dt><dd>${row.agentId}</dd>
      <dt>Session id</dt><dd><code>${row.sessionId}</code></dd>
      <dt>Channel</dt><dd>${channelOf(row) || "—"}</dd>
      <dt>Tokens</dt><dd>${tokensOf(row).toLocaleString()}</dd>
      ${row.label ? html`<dt>Label</dt><dd>${row.label}</dd>` : nothing}
    </dl>
    ${actions(params)}
    <h3>Last messages</h3>
    ${previewList(params.preview)}
    <form class="overrides" aria-label="Session overrides" @submit=${(event: SubmitEvent) => submitOverrides(event, params.onPatch)}>
      <h3>Overrides</h3>
      ${choice({ name: "model", label: "Model", value: modelOverrideOf(row), options: params.models })}
      ${choice({ name: "thinkingLevel", label: "Thinking", value: row.thinkingLevel ?? "", options: THINKING_LEVELS })}
      ${choice({ name: "verboseLevel", label: "Verbose", value: row.verboseLevel ?? "", options: VERBOSE_LEVELS })}
      ${choice({ name: "queueMode", label: "Queue mode", value: row.queueMode ?? "", options: QUEUE_MODES })}
      <button type="submit" ?disabled=${params.busy}>Save overrides</button>
    </form>
  </section>`;
}
