// The Control UI's Sessions page: every agent's sessions, a page at a time from the gateway
// (`sessions.list` with offset/limit/sort/order/search; never the whole store), searchable and
// sortable by key, channel, last activity, tokens and model; a panel per session with a preview,
// Reset / Compact / Delete and the per-session overrides. The view deep-links (`#/sessions?q=…`),
// and a `sessions.changed` event (after `sessions.subscribe`) reloads the page shown.
import { html, LitElement, nothing, type PropertyValues } from "lit";
import { keyed } from "lit/directives/keyed.js";
import type { UiContext } from "../ui-context.js";
import {
  type OverrideValues,
  type PreviewItem,
  type PreviewState,
  patchParams,
  sessionDetail,
} from "./sessions-detail.js";
import {
  DEFAULT_VIEW,
  firstOrder,
  listParams,
  PAGE_SIZES,
  queryOfView,
  type SessionRow,
  type SessionsListAnswer,
  type SessionsView,
  type SortKey,
  sameView,
  viewFromQuery,
} from "./sessions-model.js";
import { sessionsPager, sessionsTable } from "./sessions-table.js";

/** Delay between the last keystroke in the search box and the search. */
const SEARCH_DELAY_MS = 300;
/** `sessions.changed` events (one per turn on a busy gateway) reload the page at most this often. */
const RELOAD_EVERY_MS = 1000;

/** The Sessions page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class SessionsPage extends LitElement {
  static override properties = {
    ctx: { attribute: false },
    query: { attribute: false },
    view: { state: true },
    answer: { state: true },
    agents: { state: true },
    models: { state: true },
    selected: { state: true },
    preview: { state: true },
    confirmingDelete: { state: true },
    busy: { state: true },
    loading: { state: true },
    notice: { state: true },
    error: { state: true },
  };
  declare ctx: UiContext;
  declare query: URLSearchParams;
  declare view: SessionsView;
  declare answer: SessionsListAnswer | undefined;
  declare agents: string[];
  declare models: string[];
  declare selected: SessionRow | undefined;
  declare preview: PreviewState;
  declare confirmingDelete: boolean;
  declare busy: boolean;
  /** A page is being fetched (the rows shown are the previous answer's). */
  declare loading: boolean;
  declare notice: string;
  declare error: string;
  private loads = 0;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor() {
    super();
    this.view = { ...DEFAULT_VIEW };
    this.agents = [];
    this.models = [];
    this.preview = { status: "loading" };
    this.confirmingDelete = false;
    this.busy = false;
    this.loading = false;
    this.notice = "";
    this.error = "";
  }

  override createRenderRoot() {
    return this;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearTimeout(this.searchTimer);
    clearTimeout(this.reloadTimer);
    this.reloadTimer = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A new address (back/forward, a link) shows its view; one this page wrote itself is the same.
    let moved = false;
    if (changed.has("query")) {
      const wanted = viewFromQuery(this.query);
      moved = !sameView(wanted, this.view);
      if (moved) this.view = wanted;
    }
    if (changed.has("ctx") && this.ctx) void this.start();
    else if ((moved || changed.has("view")) && this.ctx) void this.load();
  }

  private async start(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = this.ctx.subscribe((event) => {
      if (event !== "sessions.changed" || this.reloadTimer !== undefined) return;
      this.reloadTimer = setTimeout(() => {
        this.reloadTimer = undefined;
        void this.load();
      }, RELOAD_EVERY_MS);
    });
    void this.ctx.request("sessions.subscribe", {});
    void this.load();
    const [agents, models] = await Promise.all([
      this.ctx.request<{ agents: Array<{ id: string }> }>("agents.list"),
      this.ctx.request<{ models: Array<{ provider: string; id: string }> }>("models.list"),
    ]);
    if (agents.ok) this.agents = agents.payload.agents.map((agent) => agent.id);
    if (models.ok) this.models = models.payload.models.map((m) => `${m.provider}/${m.id}`);
  }

  /** Loads the page of the current view; an older answer arriving late is dropped. */
  private async load(): Promise<void> {
    const ticket = ++this.loads;
    this.loading = true;
    const res = await this.ctx.request<SessionsListAnswer>("sessions.list", listParams(this.view));
    if (ticket !== this.loads) return;
    this.loading = false;
    if (!res.ok) {
      this.error = `Could not list sessions: ${res.error.message}`;
      return;
    }
    this.error = "";
    this.answer = res.payload;
    const selected = this.selected;
    if (selected) {
      const fresh = res.payload.sessions.find((row) => row.key === selected.key);
      if (fresh) this.selected = fresh;
    }
  }

  /** Shows another view and records it in the address (deep link). */
  private show(changes: Partial<SessionsView>): void {
    this.view = { ...this.view, ...changes };
    this.ctx.navigate("sessions", queryOfView(this.view));
  }

  private onSort(sort: SortKey): void {
    const order =
      this.view.sort === sort ? (this.view.order === "asc" ? "desc" : "asc") : firstOrder(sort);
    this.show({ sort, order, offset: 0 });
  }

  private onSearchInput(event: InputEvent): void {
    const search = (event.target as HTMLInputElement).value;
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => this.show({ search, offset: 0 }), SEARCH_DELAY_MS);
  }

  private onSearchSubmit(event: SubmitEvent): void {
    event.preventDefault();
    clearTimeout(this.searchTimer);
    const data = new FormData(event.currentTarget as HTMLFormElement);
    this.show({ search: String(data.get("search") ?? ""), offset: 0 });
  }

  private async select(row: SessionRow): Promise<void> {
    this.selected = row;
    this.confirmingDelete = false;
    this.preview = { status: "loading" };
    const res = await this.ctx.request<{
      previews: Array<{ status: "ok" | "empty" | "missing"; items: PreviewItem[] }>;
    }>("sessions.preview", { keys: [row.key], limit: 8, maxChars: 400 });
    if (this.selected?.key !== row.key) return;
    const first = res.ok ? res.payload.previews[0] : undefined;
    this.preview = !res.ok
      ? { status: "error", message: res.error.message }
      : { status: first?.status ?? "missing", items: first?.items ?? [] };
  }

  /** Runs one action on the selected session, says what happened, and reloads the page. */
  private async act(params: {
    method: string;
    body: Record<string, unknown>;
    done: (payload: Record<string, unknown>) => string;
  }): Promise<Record<string, unknown> | undefined> {
    this.busy = true;
    this.notice = "";
    const res = await this.ctx.request<Record<string, unknown>>(params.method, params.body);
    this.busy = false;
    if (!res.ok) {
      this.error = `${params.method} failed: ${res.error.message}`;
      return undefined;
    }
    this.error = "";
    this.notice = params.done(res.payload);
    await this.load();
    return res.payload;
  }

  private async reset(row: SessionRow): Promise<void> {
    const done = await this.act({
      method: "sessions.reset",
      body: { key: row.key },
      done: () => `Reset ${row.key}: it starts a new conversation.`,
    });
    if (done) void this.select({ ...row, ...(done.entry as Partial<SessionRow>) });
  }

  private async compact(row: SessionRow): Promise<void> {
    await this.act({
      method: "sessions.compact",
      body: { key: row.key },
      done: (payload) =>
        payload.compacted
          ? `Compacted ${row.key}.`
          : `${row.key} was not compacted: ${String(payload.reason ?? "nothing to do")}`,
    });
  }

  private async deleteSession(row: SessionRow, confirmed: boolean): Promise<void> {
    if (!confirmed) {
      this.confirmingDelete = true;
      return;
    }
    this.confirmingDelete = false;
    const done = await this.act({
      method: "sessions.delete",
      body: { key: row.key },
      done: () => `Deleted ${row.key}.`,
    });
    if (done) this.selected = undefined;
  }

  private async patch(row: SessionRow, values: OverrideValues): Promise<void> {
    const body = patchParams(row, values);
    if (Object.keys(body).length === 1) {
      this.notice = "No override changed.";
      return;
    }
    const done = await this.act({
      method: "sessions.patch",
      body,
      done: () => `Saved the overrides of ${row.key}.`,
    });
    if (done && this.selected?.key === row.key) {
      this.selected = { ...row, ...(done.entry as Partial<SessionRow>), key: row.key };
    }
  }

  private toolbar() {
    const { view } = this;
    return html`<form class="toolbar" role="search" @submit=${this.onSearchSubmit}>
      <label>
        Agent
        <select
          name="agent"
          @change=${(event: Event) => this.show({ agent: (event.target as HTMLSelectElement).value, offset: 0 })}
        >
          <option value="" ?selected=${view.agent === ""}>All agents</option>
          ${this.agents.map((id) => html`<option value=${id} ?selected=${id === view.agent}>${id}</option>`)}
        </select>
      </label>
      <label>
        Search
        <input type="search" name="search" .value=${view.search} placeholder="key or label" @input=${this.onSearchInput} />
      </label>
      <label>
        Per page
        <select
          name="limit"
          @change=${(event: Event) => this.show({ limit: Number((event.target as HTMLSelectElement).value), offset: 0 })}
        >
          ${PAGE_SIZES.map((size) => html`<option value=${size} ?selected=${size === view.limit}>${size}</option>`)}
        </select>
      </label>
    </form>`;
  }

  private detail(row: SessionRow) {
    return keyed(
      `${row.key} ${row.sessionId} ${row.modelOverride} ${row.thinkingLevel} ${row.verboseLevel} ${row.queueMode}`,
      sessionDetail({
        row,
        preview: this.preview,
        models: this.models,
        confirmingDelete: this.confirmingDelete,
        busy: this.busy,
        onReset: () => void this.reset(row),
        onCompact: () => void this.compact(row),
        onDelete: (confirmed) => void this.deleteSession(row, confirmed),
        onCancelDelete: () => {
          this.confirmingDelete = false;
        },
        onPatch: (values) => void this.patch(row, values),
        onClose: () => {
          this.selected = undefined;
        },
      }),
    );
  }

  override render() {
    const answer = this.answer;
    return html`<h1>Sessions</h1>
      ${this.toolbar()}
      <p class="error" role="alert" ?hidden=${!this.error}>${this.error}</p>
      <p class="muted notice" role="status" aria-live="polite">${this.notice}</p>
      <div class=${this.selected ? "sessions-layout with-detail" : "sessions-layout"}>
        <div class="sessions-list" aria-busy=${this.loading ? "true" : "false"}>
          ${
            answer === undefined
              ? html`<p class="muted">Loading sessions…</p>`
              : answer.total === 0
                ? html`<p class="muted">No sessions match.</p>`
                : html`${sessionsTable({
                    rows: answer.sessions,
                    view: this.view,
                    selected: this.selected?.key,
                    now: Date.now(),
                    onSort: (sort) => this.onSort(sort),
                    onSelect: (row) => void this.select(row),
                  })}
                  ${sessionsPager({
                    offset: answer.offset,
                    limit: this.view.limit,
                    total: answer.total,
                    count: answer.count,
                    onPage: (offset) => this.show({ offset }),
                  })}`
          }
        </div>
        ${this.selected ? this.detail(this.selected) : nothing}
      </div>`;
  }
}
