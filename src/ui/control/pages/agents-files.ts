// The Agents page's bootstrap-file editor: the agent's known bootstrap files (agents.files.list),
// one opened into a text area (agents.files.get) and saved whole (agents.files.set, atomic on the
// gateway). A missing file is marked and can be created by saving it.
import { html, nothing, type TemplateResult } from "lit";
import type { AgentFile } from "./agents-model.js";

/** The file being edited: what the gateway has and what the text area holds. */
export interface OpenFile {
  file: AgentFile;
  draft: string;
}

/** What the editor needs: the agent's files, the open one, and the handlers. */
export interface FilesEditorParams {
  agentId: string;
  workspace: string;
  files: readonly AgentFile[];
  open: OpenFile | undefined;
  busy: boolean;
  status: string;
  error: string;
  onOpen: (name: string) => void;
  onInput: (draft: string) => void;
  onSave: () => void;
}

function sizeText(file: AgentFile): string {
  if (file.missing) return "missing";
  return `${(file.size ?? 0).toLocaleString()} bytes`;
}

function editor(params: FilesEditorParams, open: OpenFile): TemplateResult {
  const changed = open.draft !== (open.file.content ?? "");
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    params.onSave();
  };
  return html`<form class="file-editor" @submit=${submit}>
    <label for="agent-file-text">Contents of ${open.file.name}</label>
    <textarea
      id="agent-file-text"
      name="content"
      rows="16"
      spellcheck="false"
      .value=${open.draft}
      @input=${(event: InputEvent) => params.onInput((event.target as HTMLTextAreaElement).value)}
    ></textarea>
    <div class="toolbar">
      <button type="submit" ?disabled=${params.busy || !changed}>Save ${open.file.name}</button>
      ${changed ? html`<span class="badge warn">unsaved changes</span>` : nothing}
      <span class="muted">${open.file.path}</span>
    </div>
  </form>`;
}

/** The bootstrap-files card of one agent. */
export function filesEditor(params: FilesEditorParams): TemplateResult {
  return html`<section class="card agent-files" aria-labelledby="agent-files-title">
    <h2 id="agent-files-title">Bootstrap files of ${params.agentId}</h2>
    <p class="muted">In ${params.workspace}; the agent reads them at the start of every run.</p>
    <ul class="file-list">
      ${params.files.map(
        (file) => html`<li>
          <button
            type="button"
            aria-pressed=${params.open?.file.name === file.name ? "true" : "false"}
            @click=${() => params.onOpen(file.name)}
          >
            ${file.name}
          </button>
          <span class=${file.missing ? "badge warn" : "muted"}>${sizeText(file)}</span>
        </li>`,
      )}
    </ul>
    ${params.open ? editor(params, params.open) : html`<p class="muted">Pick a file to view or edit it.</p>`}
    <p class="error" role="alert" ?hidden=${!params.error}>${params.error}</p>
    <p class="muted" role="status" aria-live="polite">${params.status}</p>
  </section>`;
}
