// The Control UI's Config page: the config file as a form generated from its schema (sections
// gateway, agents, models, channels; applied as a merge patch with `config.patch`, comments kept)
// or as raw JSON5 (applied whole with `config.apply`). The gateway validates before it writes
// anything: errors come back at their field (key path) or line and nothing is applied. Every apply
// carries the `baseHash` it was based on, so a change made meanwhile (CLI, editor, another client)
// is reported, not overwritten. What needs a restart is said (the gateway's `restart.keys`).
import { html, LitElement, nothing } from "lit";
import type { UiContext } from "../ui-context.js";
import { type ConfigIssue, issuePlace, renderRawEditor } from "./config-editor.js";
import { type FormHost, renderNode } from "./config-form.js";
import type { SchemaNode } from "./config-schema.js";
import { errorText } from "./devices-format.js";

/** The sections the form shows (the rest stays in the raw editor). */
const SECTIONS = ["gateway", "agents", "models", "channels"] as const;

interface ConfigGet {
  path: string;
  exists: boolean;
  valid: boolean;
  hash: string;
  raw?: string;
  config: Record<string, unknown>;
  issues: ConfigIssue[];
  inSync: boolean;
  warning?: string;
}

interface WriteResult {
  hash: string;
  applied: boolean;
  restart: { needed: boolean; keys: string[]; reason?: string };
  warnings?: string[];
}

type Mode = "form" | "raw";

function walk(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) {
    if (!at || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** The merge patch of the form's edits (`null` deletes a key). */
function mergePatch(edits: ReadonlyMap<string, { path: string[]; value: unknown }>) {
  const patch: Record<string, unknown> = {};
  for (const { path, value } of edits.values()) {
    let at = patch;
    path.slice(0, -1).forEach((key) => {
      const next = at[key];
      at[key] = next && typeof next === "object" ? next : {};
      at = at[key] as Record<string, unknown>;
    });
    at[path[path.length - 1]!] = value;
  }
  return patch;
}

/** The Config page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class ConfigPage extends LitElement {
  static override properties = {
    ctx: { attribute: false },
    query: { attribute: false },
    file: { state: true },
    schema: { state: true },
    mode: { state: true },
    rawText: { state: true },
    issues: { state: true },
    status: { state: true },
    error: { state: true },
    conflict: { state: true },
    busy: { state: true },
    revision: { state: true },
  };
  declare ctx: UiContext;
  declare query: URLSearchParams;
  declare file: ConfigGet | undefined;
  declare schema: SchemaNode | undefined;
  declare mode: Mode;
  declare rawText: string;
  declare issues: ConfigIssue[];
  declare status: string;
  declare error: string;
  /** Set when an apply was refused because the file changed since it was loaded. */
  declare conflict: boolean;
  declare busy: boolean;
  /** Bumped on every form edit or fieldset toggle (the form reads plain maps). */
  declare revision: number;
  private readonly edits = new Map<string, { path: string[]; value: unknown }>();
  private readonly open = new Set<string>(["gateway"]);
  private loadedFor: UiContext | undefined;

  constructor() {
    super();
    this.file = undefined;
    this.schema = undefined;
    this.mode = "form";
    this.rawText = "";
    this.issues = [];
    this.status = "";
    this.error = "";
    this.conflict = false;
    this.busy = false;
    this.revision = 0;
  }

  override createRenderRoot() {
    return this;
  }

  override willUpdate(): void {
    if (this.ctx && this.loadedFor !== this.ctx) {
      this.loadedFor = this.ctx;
      this.mode = this.query?.get("mode") === "raw" ? "raw" : "form";
      void this.load();
    }
  }

  /** Loads the file (and once the schema); drops the form's edits and the editor's text. */
  private async load(): Promise<void> {
    // Busy while loading: Apply waits, and an edit made meanwhile is not silently dropped with it.
    this.busy = true;
    const [file, schema] = await Promise.all([
      this.ctx.request<ConfigGet>("config.get", {}),
      this.schema
        ? Promise.resolve(undefined)
        : this.ctx.request<{ schema: SchemaNode }>("config.schema", {}),
    ]).finally(() => {
      this.busy = false;
    });
    if (!file.ok) {
      this.error = errorText(file.error);
      return;
    }
    if (schema?.ok) this.schema = schema.payload.schema;
    this.file = file.payload;
    this.edits.clear();
    this.rawText = file.payload.raw ?? `${JSON.stringify(file.payload.config, null, 2)}\n`;
    this.issues = [];
    this.conflict = false;
    this.error = "";
    this.revision++;
  }

  private readonly host: FormHost = {
    root: {},
    valueAt: (path) => {
      const edit = this.edits.get(path.join("."));
      if (edit) return edit.value === null ? undefined : edit.value;
      return walk(this.file?.config, path);
    },
    set: (path, value) => {
      const key = path.join(".");
      const original = walk(this.file?.config, path);
      if (JSON.stringify(original ?? null) === JSON.stringify(value)) this.edits.delete(key);
      else this.edits.set(key, { path: [...path], value });
      this.revision++;
    },
    errorAt: (dotPath) => this.issues.find((i) => i.path === dotPath)?.message,
    errorUnder: (dotPath) =>
      this.issues.some((i) => i.path === dotPath || i.path.startsWith(`${dotPath}.`)),
    isOpen: (dotPath) => this.open.has(dotPath),
    toggle: (dotPath, open) => {
      if (open === this.open.has(dotPath)) return;
      if (open) this.open.add(dotPath);
      else this.open.delete(dotPath);
      this.revision++;
    },
  };

  private async apply(): Promise<void> {
    const file = this.file;
    if (!file) return;
    const form = this.mode === "form";
    if (form && this.edits.size === 0) {
      this.status = "Nothing changed.";
      return;
    }
    this.busy = true;
    this.status = "";
    const raw = form ? JSON.stringify(mergePatch(this.edits), null, 2) : this.rawText;
    const res = await this.ctx.request<WriteResult>(form ? "config.patch" : "config.apply", {
      raw,
      ...(file.exists ? { baseHash: file.hash } : {}),
    });
    this.busy = false;
    if (!res.ok) {
      const details = (res.error.details ?? {}) as { code?: string; issues?: ConfigIssue[] };
      this.conflict = details.code === "CONFIG_BASE_HASH_MISMATCH";
      this.issues = details.issues ?? [];
      this.error = this.conflict
        ? "The config file changed since it was loaded (the CLI, an editor or another client wrote it). Nothing was applied: reload to see the current file (this discards your edits here)."
        : this.issues.length > 0
          ? `Not applied: ${this.issues.length} problem${this.issues.length > 1 ? "s" : ""} in the config (shown ${form ? "at their fields" : "by line"}).`
          : errorText(res.error);
      this.revision++;
      return;
    }
    const r = res.payload;
    const restart = r.restart.needed
      ? ` Needs a gateway restart to take effect: ${r.restart.keys.join(", ")}${r.restart.reason ? ` (${r.restart.reason})` : ""}.`
      : " Running with it now (no restart needed).";
    await this.load();
    this.status = `${r.applied ? "Applied." : "Written, not applied yet."}${restart}${
      r.warnings?.length ? ` ${r.warnings.join(" ")}` : ""
    }`;
  }

  private renderForm(schema: SchemaNode) {
    this.host.root = schema;
    const sections = SECTIONS.filter((s) => schema.properties?.[s]);
    const placed = (i: ConfigIssue) =>
      sections.some((s) => i.path === s || i.path.startsWith(`${s}.`));
    const elsewhere = this.issues.filter((i) => !placed(i));
    return html`<form class="cfg-form" novalidate @submit=${(e: Event) => {
      e.preventDefault();
      void this.apply();
    }}>
      ${
        elsewhere.length > 0
          ? html`<ul class="cfg-issues">${elsewhere.map(
              (i) => html`<li class="error"><strong>${issuePlace(i)}</strong>: ${i.message}</li>`,
            )}</ul>`
          : nothing
      }
      ${sections.map((s) => renderNode(this.host, [s], schema.properties![s]!))}
      <div class="toolbar">
        <button type="submit" ?disabled=${this.busy}>Apply</button>
        <button type="button" ?disabled=${this.busy} @click=${() => this.load()}>Discard edits</button>
        <span class="muted">${this.edits.size} change${this.edits.size === 1 ? "" : "s"}; other sections in the raw editor</span>
      </div>
    </form>`;
  }

  private renderRaw() {
    return html`<form class="cfg-raw" novalidate @submit=${(e: Event) => {
      e.preventDefault();
      void this.apply();
    }}>
      ${
        this.file && this.file.raw === undefined && this.file.exists
          ? html`<p class="muted">The file's own text could not be shown: this is its parsed content (comments are not kept).</p>`
          : nothing
      }
      ${renderRawEditor({
        text: this.rawText,
        issues: this.issues,
        onInput: (text) => {
          this.rawText = text;
        },
      })}
      <div class="toolbar">
        <button type="submit" ?disabled=${this.busy}>Apply</button>
        <button type="button" ?disabled=${this.busy} @click=${() => this.load()}>Discard edits</button>
      </div>
    </form>`;
  }

  override render() {
    const f = this.file;
    return html`<h1>Config</h1>
      ${
        f
          ? html`<p class="muted">${f.path} · ${
              f.valid
                ? html`<span class="badge ok">valid</span>`
                : html`<span class="badge err">invalid</span>`
            } ${f.inSync ? nothing : html`<span class="badge warn">not running</span>`} · hash ${f.hash.slice(0, 12)}</p>`
          : nothing
      }
      ${f?.warning ? html`<p class="error">${f.warning}</p>` : nothing}
      ${
        f && !f.valid && f.issues.length > 0 && this.issues.length === 0
          ? html`<ul class="cfg-issues">${f.issues.map(
              (i) => html`<li class="error"><strong>${issuePlace(i)}</strong>: ${i.message}</li>`,
            )}</ul>`
          : nothing
      }
      <div class="toolbar" role="group" aria-label="Editor">
        <button type="button" aria-pressed=${this.mode === "form" ? "true" : "false"}
          @click=${() => {
            this.mode = "form";
            this.issues = [];
          }}>Form</button>
        <button type="button" aria-pressed=${this.mode === "raw" ? "true" : "false"}
          @click=${() => {
            this.mode = "raw";
            this.issues = [];
          }}>Raw JSON5</button>
        <button type="button" ?disabled=${this.busy} @click=${() => this.load()}>Reload</button>
      </div>
      <p class="status-line" role="status" aria-live="polite" aria-busy=${this.busy ? "true" : "false"}>${this.status}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        !f || !this.schema
          ? html`<p class="muted">Loading…</p>`
          : this.mode === "form"
            ? this.renderForm(this.schema)
            : this.renderRaw()
      }`;
  }
}
