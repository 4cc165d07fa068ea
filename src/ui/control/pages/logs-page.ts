// The Control UI's Logs page: a live tail of the gateway's log (`logs.tail` polled with its cursor,
// as `pincer logs --follow` polls the file), level and text filters (also `#/logs?level=warn&q=x`),
// pause and resume (resuming reads on from the cursor: nothing written meanwhile is skipped unless
// the gateway's ring dropped it, which is said), and a download of the lines shown.
import { html, LitElement, nothing } from "lit";
import {
  appendBounded,
  filterLines,
  isLogLevel,
  LOG_LEVELS,
  type LogLevel,
} from "../logs/log-lines.js";
import type { UiContext } from "../ui-context.js";

/** The `logs.tail` payload. */
interface LogsTail {
  lines: string[];
  cursor: number;
  reset?: boolean;
  truncated?: boolean;
}

/** How often the tail asks for new lines. */
const POLL_MS = 1_000;
/** Lines kept in the page (the newest). */
const MAX_LINES = 5_000;
/** How close (px) to the bottom still counts as following the tail. */
const STICK_DISTANCE_PX = 32;

/** The Logs page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class LogsPage extends LitElement {
  static override properties = {
    ctx: { attribute: false },
    query: { attribute: false },
    lines: { state: true },
    paused: { state: true },
    minLevel: { state: true },
    text: { state: true },
    notice: { state: true },
    error: { state: true },
  };
  declare ctx: UiContext;
  declare query: URLSearchParams;
  declare lines: string[];
  declare paused: boolean;
  declare minLevel: LogLevel | undefined;
  declare text: string;
  declare notice: string | undefined;
  declare error: string | undefined;
  private cursor: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped per ctx: a poll of an older connection stops. */
  private generation = 0;
  private stick = true;

  constructor() {
    super();
    this.lines = [];
    this.paused = false;
    this.minLevel = undefined;
    this.text = "";
    this.notice = undefined;
    this.error = undefined;
  }

  override createRenderRoot() {
    return this;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.generation++;
    clearTimeout(this.timer);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.ctx) this.restart();
  }

  override willUpdate(changed: Map<string, unknown>): void {
    const box = this.querySelector<HTMLElement>("#log-lines");
    this.stick = !box || box.scrollHeight - box.scrollTop - box.clientHeight <= STICK_DISTANCE_PX;
    if (changed.has("query") && this.query) {
      const level = this.query.get("level");
      this.minLevel = isLogLevel(level) ? level : undefined;
      this.text = this.query.get("q") ?? "";
    }
    if (changed.has("ctx") && this.ctx && this.isConnected) this.restart();
  }

  override updated(): void {
    const box = this.querySelector<HTMLElement>("#log-lines");
    if (box && this.stick) box.scrollTop = box.scrollHeight;
  }

  private restart(): void {
    clearTimeout(this.timer);
    const generation = ++this.generation;
    if (!this.paused) void this.poll(generation);
  }

  private async poll(generation: number): Promise<void> {
    const outcome = await this.ctx.request<LogsTail>("logs.tail", {
      ...(this.cursor !== undefined ? { cursor: this.cursor } : {}),
      limit: 500,
    });
    if (generation !== this.generation) return;
    if (outcome.ok) {
      const tail = outcome.payload;
      if (tail.reset && this.cursor !== undefined) {
        this.notice = "Some lines were dropped by the gateway before they could be shown.";
      }
      this.error = undefined;
      this.cursor = tail.cursor;
      if (tail.lines.length > 0) this.lines = appendBounded(this.lines, tail.lines, MAX_LINES);
    } else {
      this.error = `logs.tail failed: ${outcome.error.message}`;
    }
    if (!this.paused) this.timer = setTimeout(() => void this.poll(generation), POLL_MS);
  }

  private togglePause(): void {
    this.paused = !this.paused;
    if (this.paused) {
      this.generation++;
      clearTimeout(this.timer);
    } else this.restart();
  }

  /** Keeps the filters in the address (replacing, not adding, a history entry). */
  private saveFilters(): void {
    const query = new URLSearchParams();
    if (this.minLevel) query.set("level", this.minLevel);
    if (this.text !== "") query.set("q", this.text);
    const search = query.toString();
    history.replaceState(history.state, "", `#/logs${search ? `?${search}` : ""}`);
  }

  private shown(): string[] {
    return filterLines(this.lines, { minLevel: this.minLevel, text: this.text });
  }

  private download(): void {
    const shown = this.shown();
    const blob = new Blob([shown.join("\n") + (shown.length > 0 ? "\n" : "")], {
      type: "text/plain",
    });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `pincer-gateway-${new Date().toISOString().replace(/[:.]/g, "-")}.log`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 0);
  }

  override render() {
    const shown = this.shown();
    return html`<section class="logs" aria-labelledby="logs-title">
      <h1 id="logs-title">Logs</h1>
      <div class="toolbar">
        <label
          >Level
          <select
            id="log-level"
            @change=${(event: Event) => {
              const value = (event.target as HTMLSelectElement).value;
              this.minLevel = isLogLevel(value) ? value : undefined;
              this.saveFilters();
            }}
          >
            <option value="" ?selected=${!this.minLevel}>all</option>
            ${LOG_LEVELS.map(
              (level) =>
                html`<option value=${level} ?selected=${this.minLevel === level}>
                  ${level} and above
                </option>`,
            )}
          </select></label
        >
        <label
          >Filter
          <input
            id="log-filter"
            type="search"
            .value=${this.text}
            placeholder="text in the line"
            @input=${(event: Event) => {
              this.text = (event.target as HTMLInputElement).value;
              this.saveFilters();
            }}
        /></label>
        <button type="button" id="log-pause" @click=${() => this.togglePause()}>
          ${this.paused ? "Resume" : "Pause"}
        </button>
        <button type="button" id="log-download" @click=${() => this.download()}>Download</button>
      </div>
      <p class="muted" role="status">
        ${this.paused ? "Paused. " : "Following the log. "}${shown.length} of ${this.lines.length}
        lines shown.
      </p>
      ${this.notice ? html`<p class="muted">${this.notice}</p>` : nothing}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <pre id="log-lines" class="log-lines" tabindex="0" aria-label="Log lines">${shown.map(
        (line) => html`<span class="line" data-level=${line.split(" ", 2)[1] ?? ""}>${line}
</span>`,
      )}</pre>
    </section>`;
  }
}
