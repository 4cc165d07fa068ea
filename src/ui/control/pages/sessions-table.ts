// The Sessions page's table and pager: sortable column headers (a button in each header, the
// order in `aria-sort`), one row per session of the page, and Previous / Next with "1–50 of N".
import { html, nothing, type TemplateResult } from "lit";
import {
  ago,
  COLUMNS,
  channelOf,
  modelOf,
  type SessionRow,
  type SessionsView,
  type SortKey,
  tokensOf,
} from "./sessions-model.js";

/** What the table needs: the rows, the view, the selected key and the handlers. */
export interface SessionsTableParams {
  rows: readonly SessionRow[];
  view: SessionsView;
  selected: string | undefined;
  now: number;
  onSort: (sort: SortKey) => void;
  onSelect: (row: SessionRow) => void;
}

function ariaSort(view: SessionsView, key: SortKey): "ascending" | "descending" | "none" {
  if (view.sort !== key) return "none";
  return view.order === "asc" ? "ascending" : "descending";
}

function arrow(view: SessionsView, key: SortKey): string {
  if (view.sort !== key) return "";
  return view.order === "asc" ? " ▲" : " ▼";
}

function cells(row: SessionRow, now: number): TemplateResult {
  const channel = channelOf(row);
  const model = modelOf(row);
  return html`<td>${channel || html`<span class="muted">—</span>`}</td>
    <td><time datetime=${new Date(row.updatedAt).toISOString()} title=${new Date(row.updatedAt).toLocaleString()}>${ago(row.updatedAt, now)}</time></td>
    <td class="num">${tokensOf(row).toLocaleString()}</td>
    <td>${model || html`<span class="muted">default</span>`}</td>`;
}

/** The sessions table of one page. */
export function sessionsTable(params: SessionsTableParams): TemplateResult {
  const { rows, view, selected } = params;
  return html`<div class="sessions-scroll">
    <table class="sessions-table" aria-label="Sessions">
      <thead>
        <tr>
          ${COLUMNS.map(
            (column) =>
              html`<th scope="col" aria-sort=${ariaSort(view, column.key)}>
                <button type="button" class="sort" @click=${() => params.onSort(column.key)}>
                  ${column.label}${arrow(view, column.key)}
                </button>
              </th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (row) =>
            html`<tr class=${row.key === selected ? "selected" : ""} data-key=${row.key}>
              <th scope="row">
                <button
                  type="button"
                  class="session-key"
                  aria-pressed=${row.key === selected ? "true" : "false"}
                  @click=${() => params.onSelect(row)}
                >
                  ${row.label ? html`<span class="badge">${row.label}</span> ` : nothing}${row.key}
                </button>
              </th>
              ${cells(row, params.now)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** What the pager needs. */
export interface PagerParams {
  /** The rows shown: where they start in the list (the answer's offset, not the one asked for). */
  offset: number;
  limit: number;
  total: number;
  count: number;
  onPage: (offset: number) => void;
}

/** "1–50 of 100,000" with Previous / Next. */
export function sessionsPager(params: PagerParams): TemplateResult {
  const { offset, limit, total, count } = params;
  const first = count === 0 ? 0 : offset + 1;
  const last = offset + count;
  return html`<nav class="toolbar pager" aria-label="Pages">
    <button
      type="button"
      ?disabled=${offset === 0}
      @click=${() => params.onPage(Math.max(0, offset - limit))}
    >
      Previous
    </button>
    <span class="muted page-range">${first.toLocaleString()}–${last.toLocaleString()} of ${total.toLocaleString()}</span>
    <button
      type="button"
      ?disabled=${last >= total}
      @click=${() => params.onPage(offset + limit)}
    >
      Next
    </button>
  </nav>`;
}
