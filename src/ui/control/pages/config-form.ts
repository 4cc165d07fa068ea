// The Config page's form, generated from the config JSON Schema: one input per key by its schema
// type (text, number, true/false, a choice of constants, a list of strings), objects as collapsible
// fieldsets (their fields rendered only while open), maps as one fieldset per existing entry.
// Compat-marked keys (accepted, not implemented) get no input: a set one is shown as such. Anything
// else (lists of objects, SecretRefs) is left to the raw editor. Errors show at their field.
import { html, nothing, type TemplateResult } from "lit";
import { GATEWAY_RESTART_KEYS } from "../../../protocol/config/restart-keys.js";
import { fieldKind, isCompat, resolve, type SchemaNode } from "./config-schema.js";

/** Keys whose change the running gateway applies only after a restart (its live config's). */
const RESTART_KEYS: ReadonlySet<string> = new Set(GATEWAY_RESTART_KEYS);

/** What the form reads and writes; paths are object keys from the config root. */
export interface FormHost {
  root: SchemaNode;
  /** The value shown at a path: the edit if any, else the loaded config's. */
  valueAt(path: readonly string[]): unknown;
  /** Records an edit; `null` removes the key (a merge patch's delete). */
  set(path: readonly string[], value: unknown): void;
  /** The gateway's error for a dot path, if the last apply had one. */
  errorAt(dotPath: string): string | undefined;
  /** Whether an error lies at or under a dot path (its fieldset opens). */
  errorUnder(dotPath: string): boolean;
  /** Open fieldsets (dot paths). */
  isOpen(dotPath: string): boolean;
  toggle(dotPath: string, open: boolean): void;
}

const dot = (path: readonly string[]) => path.join(".");
const idOf = (path: readonly string[]) => `cfg-${path.join("-").replace(/[^A-Za-z0-9_-]/g, "_")}`;

function labelFor(path: readonly string[], node: SchemaNode) {
  const key = path[path.length - 1] ?? "";
  const restart = RESTART_KEYS.has(dot(path));
  return html`<div class="cfg-label"><label for=${idOf(path)}>${key}</label>${
    restart ? html` <span class="badge warn">restart needed</span>` : nothing
  }${node.description ? html` <span class="muted">${node.description}</span>` : nothing}</div>`;
}

function errorLine(host: FormHost, path: readonly string[]) {
  const error = host.errorAt(dot(path));
  return error
    ? html`<p class="error field-error" id=${`${idOf(path)}-err`}>${error}</p>`
    : nothing;
}

function described(host: FormHost, path: readonly string[]) {
  return host.errorAt(dot(path)) ? `${idOf(path)}-err` : "";
}

/** One leaf input row. */
function leaf(host: FormHost, path: readonly string[], node: SchemaNode): TemplateResult {
  const kind = fieldKind(host.root, node, path[path.length - 1] ?? "");
  const value = host.valueAt(path);
  const id = idOf(path);
  const invalid = host.errorAt(dot(path)) ? "true" : "false";
  const desc = described(host, path);
  let input: TemplateResult;
  switch (kind.kind) {
    case "string":
      input = html`<input id=${id} type=${kind.secret ? "password" : "text"} autocomplete="off"
        .value=${typeof value === "string" ? value : ""} aria-invalid=${invalid} aria-describedby=${desc}
        @change=${(e: Event) => {
          const v = (e.target as HTMLInputElement).value;
          host.set(path, v === "" ? null : v);
        }}>`;
      break;
    case "number":
      input = html`<input id=${id} type="number" step=${kind.integer ? "1" : "any"}
        min=${kind.minimum ?? nothing} max=${kind.maximum ?? nothing}
        .value=${typeof value === "number" ? String(value) : ""} aria-invalid=${invalid}
        aria-describedby=${desc}
        @change=${(e: Event) => {
          const v = (e.target as HTMLInputElement).value;
          host.set(path, v === "" ? null : Number(v));
        }}>`;
      break;
    case "boolean":
      input = html`<select id=${id} aria-invalid=${invalid} aria-describedby=${desc}
        @change=${(e: Event) => {
          const v = (e.target as HTMLSelectElement).value;
          host.set(path, v === "" ? null : v === "true");
        }}>
        <option value="" ?selected=${value === undefined}>(not set)</option>
        <option value="true" ?selected=${value === true}>true</option>
        <option value="false" ?selected=${value === false}>false</option>
      </select>`;
      break;
    case "enum":
      input = html`<select id=${id} aria-invalid=${invalid} aria-describedby=${desc}
        @change=${(e: Event) => {
          const v = (e.target as HTMLSelectElement).value;
          host.set(path, v === "" ? null : v);
        }}>
        <option value="" ?selected=${value === undefined}>(not set)</option>
        ${kind.options.map(
          (o) => html`<option value=${o.value} ?selected=${value === o.value} ?disabled=${o.compat}>
            ${o.value}${o.compat ? " (not implemented)" : ""}</option>`,
        )}
      </select>`;
      break;
    case "strings":
      input = html`<textarea id=${id} rows="3" aria-invalid=${invalid} aria-describedby=${desc}
        .value=${Array.isArray(value) ? value.join("\n") : ""}
        @change=${(e: Event) => {
          const lines = (e.target as HTMLTextAreaElement).value
            .split("\n")
            .map((l) => l.trim())
            .filter(Boolean);
          host.set(path, lines.length > 0 ? lines : null);
        }}></textarea><span class="muted">one per line</span>`;
      break;
    default:
      input = html`<code class="cfg-json" id=${id}>${JSON.stringify(value).slice(0, 200)}</code>
        <span class="muted">edit in the raw editor</span>`;
  }
  return html`<div class="cfg-field">${labelFor(path, node)}${input}${errorLine(host, path)}</div>`;
}

/** A node at `path`: compat ones get no input, objects and maps a fieldset, the rest an input. */
export function renderNode(
  host: FormHost,
  path: readonly string[],
  raw: SchemaNode,
): TemplateResult | typeof nothing {
  const node = resolve(host.root, raw);
  const value = host.valueAt(path);
  const key = path[path.length - 1] ?? "";
  if (isCompat(node)) {
    if (value === undefined) return nothing;
    return html`<div class="cfg-field"><span class="cfg-key">${key}</span>
      <span><span class="badge warn">not implemented</span>
      <span class="muted">${node["x-pincer-note"] ?? "accepted in the file; Pincer does not act on it"}</span></span></div>`;
  }
  const kind = fieldKind(host.root, node, key);
  if (kind.kind === "object" || kind.kind === "map") {
    const entries =
      kind.kind === "object"
        ? Object.entries(kind.properties)
        : Object.keys(value && typeof value === "object" ? value : {}).map(
            (k) => [k, kind.values] as const,
          );
    return fieldset(host, path, entries, kind.kind === "map");
  }
  if (kind.kind === "other" && value === undefined) return nothing;
  return leaf(host, path, node);
}

function fieldset(
  host: FormHost,
  path: readonly string[],
  entries: ReadonlyArray<readonly [string, SchemaNode]>,
  isMap: boolean,
): TemplateResult {
  const at = dot(path);
  const open = host.isOpen(at) || host.errorUnder(at);
  return html`<details class="cfg-group" ?open=${open}
    @toggle=${(e: Event) => {
      e.stopPropagation();
      host.toggle(at, (e.currentTarget as HTMLDetailsElement).open);
    }}>
    <summary>${path[path.length - 1]}</summary>
    ${
      open
        ? html`${errorLine(host, path)}${
            isMap && entries.length === 0
              ? html`<p class="muted">No entries; add them in the raw editor.</p>`
              : nothing
          }${entries.map(([k, child]) => renderNode(host, [...path, k], child))}`
        : nothing
    }
  </details>`;
}
