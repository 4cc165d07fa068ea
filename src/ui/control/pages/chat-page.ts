// The Control UI's Chat page (WebChat grown up): agent and session pickers (the agent's main session
// by default; also `#/chat?agent=…&session=…`), the session's history with times, the live run
// streamed with what it is doing (thinking, running a tool), Stop, New session (sessions.reset),
// a list that follows new output unless the reader scrolled up, and a draft kept in sessionStorage
// across reconnects and reloads. A send whose answer was lost is resent with the same idempotency
// key (the gateway runs it at most once).
import { html, LitElement, nothing } from "lit";
import { type AgentEvent, type ChatEvent, LiveChat } from "../chat/chat-live.js";
import { itemView } from "../chat/chat-view.js";
import type { WireMessage } from "../chat/message-text.js";
import type { UiContext, UiOutcome } from "../ui-context.js";

/** One agent of `agents.list`. */
interface AgentRow {
  id: string;
  name?: string;
}

/** The `agents.list` payload as the page reads it. */
interface AgentsListPayload {
  defaultId: string;
  mainKey: string;
  agents: AgentRow[];
}

/** One row of `sessions.list`. */
interface SessionRow {
  key: string;
  label?: string;
  displayName?: string;
}

const SELECTION_KEY = "pincer.control.chat.selection";
/** The composer's unsent text, kept across reconnects and reloads of this tab. */
const DRAFT_KEY = "pincer.control.chat.draft";
/** How close (px) to the bottom still counts as "at the bottom" (reading the newest message). */
const STICK_DISTANCE_PX = 48;

/** The main session key of an agent (`agent:<id>:<mainKey>`, as the gateway builds it). */
export function mainSessionKey(agentId: string, mainKey: string): string {
  return `agent:${agentId}:${mainKey}`;
}

function describeError(error: { message: string; details?: unknown }): string {
  const code = (error.details as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? `${error.message} [${code}]` : error.message;
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The Chat page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class ChatPage extends LitElement {
  static override properties = {
    ctx: { attribute: false },
    query: { attribute: false },
    agents: { state: true },
    sessions: { state: true },
    error: { state: true },
    revision: { state: true },
  };
  declare ctx: UiContext;
  declare query: URLSearchParams;
  declare agents: AgentsListPayload | undefined;
  declare sessions: SessionRow[];
  declare error: string | undefined;
  /** Bumped whenever the live model changes (it is not reactive itself). */
  declare revision: number;
  private readonly live = new LiveChat();
  private agentId = "";
  private unsubscribe: (() => void) | undefined;
  private stick = true;
  private forceScroll = false;
  /** A send whose answer was lost with the connection: resending the same text reuses its key. */
  private unanswered: { text: string; idempotencyKey: string } | undefined;

  constructor() {
    super();
    this.agents = undefined;
    this.sessions = [];
    this.error = undefined;
    this.revision = 0;
  }

  override createRenderRoot() {
    return this;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    const list = this.querySelector<HTMLElement>("#messages");
    this.stick =
      !list || list.scrollHeight - list.scrollTop - list.clientHeight <= STICK_DISTANCE_PX;
    if (changed.has("ctx") && this.ctx) {
      // A new ctx is a (re)connect: subscribe once, then reload what is shown.
      this.unsubscribe ??= this.ctx.subscribe((event, payload) => this.onEvent(event, payload));
      this.live.clearRuns();
      void this.call("sessions.subscribe", {});
      void this.loadAgents();
    } else if (changed.has("query") && this.agents && changed.get("query") !== undefined) {
      void this.applySelection();
    }
  }

  override updated(): void {
    const list = this.querySelector<HTMLElement>("#messages");
    if (list && (this.stick || this.forceScroll)) list.scrollTop = list.scrollHeight;
    this.forceScroll = false;
  }

  private changed(): void {
    this.revision++;
  }

  private onEvent(event: string, payload: unknown): void {
    if (event === "chat") {
      const chat = payload as ChatEvent;
      const { ended, usedTools } = this.live.onChat(chat);
      this.changed();
      // Tool results are in the transcript only: show them once the run is over.
      if (ended && usedTools && chat.sessionKey === this.live.sessionKey) void this.loadHistory();
    } else if (event === "agent") {
      this.live.onAgent(payload as AgentEvent);
      this.changed();
    } else if (event === "sessions.changed") void this.loadSessions();
  }

  private async call<T>(method: string, params: Record<string, unknown>): Promise<T | undefined> {
    const outcome: UiOutcome<T> = await this.ctx.request<T>(method, params);
    if (outcome.ok) return outcome.payload;
    this.error = `${method} failed: ${describeError(outcome.error)}`;
    return undefined;
  }

  private async loadAgents(): Promise<void> {
    const agents = await this.call<AgentsListPayload>("agents.list", {});
    if (!agents) return;
    this.error = undefined;
    this.agents = agents;
    await this.applySelection();
  }

  /** Picks the agent and session: the route's, else this tab's last, else the default's main. */
  private async applySelection(): Promise<void> {
    const agents = this.agents;
    if (!agents) return;
    const known = (id: string | undefined) => agents.agents.some((agent) => agent.id === id);
    const saved = this.savedSelection();
    const asked = this.query?.get("agent") ?? undefined;
    const agentId = known(asked)
      ? asked!
      : known(saved?.agentId)
        ? saved!.agentId
        : agents.defaultId;
    const session =
      this.query?.get("session") ??
      (saved?.agentId === agentId ? saved.sessionKey : undefined) ??
      mainSessionKey(agentId, agents.mainKey);
    this.agentId = agentId;
    await this.selectSession(session);
  }

  private async selectSession(sessionKey: string): Promise<void> {
    sessionStorage.setItem(SELECTION_KEY, JSON.stringify({ agentId: this.agentId, sessionKey }));
    this.live.showHistory(sessionKey, []);
    this.changed();
    await Promise.all([this.loadSessions(), this.loadHistory()]);
  }

  private async loadHistory(): Promise<void> {
    const sessionKey = this.live.sessionKey;
    const history = await this.call<{ messages?: WireMessage[] }>("chat.history", { sessionKey });
    if (!history || this.live.sessionKey !== sessionKey) return;
    this.live.showHistory(sessionKey, history.messages ?? []);
    this.forceScroll = true;
    this.changed();
  }

  private async loadSessions(): Promise<void> {
    const agentId = this.agentId;
    if (agentId === "") return;
    const listed = await this.call<{ sessions?: SessionRow[] }>("sessions.list", { agentId });
    if (listed && agentId === this.agentId) this.sessions = listed.sessions ?? [];
  }

  private savedSelection(): { agentId: string; sessionKey: string } | undefined {
    const raw = sessionStorage.getItem(SELECTION_KEY);
    if (!raw) return undefined;
    try {
      const parsed = JSON.parse(raw) as { agentId?: unknown; sessionKey?: unknown };
      if (typeof parsed.agentId !== "string" || typeof parsed.sessionKey !== "string") {
        return undefined;
      }
      return { agentId: parsed.agentId, sessionKey: parsed.sessionKey };
    } catch (err) {
      console.warn("control ui: ignoring an unreadable saved chat selection", err);
      return undefined;
    }
  }

  private pick(agentId: string, sessionKey: string): void {
    this.ctx.navigate("chat", { agent: agentId, session: sessionKey });
  }

  private get input(): HTMLTextAreaElement | null {
    return this.querySelector<HTMLTextAreaElement>("#message-input");
  }

  private saveDraft(): void {
    const draft = this.input?.value ?? "";
    if (draft === "") sessionStorage.removeItem(DRAFT_KEY);
    else sessionStorage.setItem(DRAFT_KEY, draft);
  }

  private async send(): Promise<void> {
    const input = this.input;
    const text = input?.value.trim() ?? "";
    const sessionKey = this.live.sessionKey;
    if (!input || text === "" || sessionKey === "") return;
    const idempotencyKey =
      this.unanswered?.text === text ? this.unanswered.idempotencyKey : randomId();
    this.unanswered = undefined;
    input.value = "";
    this.saveDraft();
    const sent = this.live.addUser(text, Date.now());
    this.live.startRun(idempotencyKey, sessionKey);
    this.forceScroll = true;
    this.changed();
    const outcome = await this.ctx.request("chat.send", {
      sessionKey,
      message: text,
      idempotencyKey,
    });
    if (outcome.ok) return;
    this.live.dropRun(idempotencyKey);
    const reason = describeError(outcome.error);
    if (outcome.error.code === "UNAVAILABLE") {
      // Never sent: the text goes back, nothing is marked.
      this.live.remove(sent);
      this.error = "Not connected: your message is kept here; send it again once reconnected.";
    } else {
      if (outcome.error.code === "CLOSED") this.unanswered = { text, idempotencyKey };
      this.live.markUnsent(sent, reason);
      this.error = `chat.send failed: ${reason}`;
    }
    this.changed();
    // Give the text back unless the user has started typing something new.
    if (input.value.trim() === "") {
      input.value = text;
      this.saveDraft();
    }
  }

  private async abort(): Promise<void> {
    if (this.live.sessionKey !== "") {
      await this.call("chat.abort", { sessionKey: this.live.sessionKey });
    }
  }

  private async newSession(): Promise<void> {
    const key = this.live.sessionKey;
    if (key === "") return;
    const reset = await this.call("sessions.reset", { key });
    if (reset) await this.loadHistory();
  }

  private onKeydown(event: KeyboardEvent): void {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void this.send();
    }
  }

  private renderPickers() {
    const agents = this.agents;
    if (!agents) return nothing;
    const mainKey = mainSessionKey(this.agentId, agents.mainKey);
    const shown = this.live.sessionKey;
    const others = this.sessions.filter((row) => row.key !== mainKey);
    const extra = shown !== mainKey && !others.some((row) => row.key === shown);
    return html`<div class="toolbar pickers">
      <label
        >Agent
        <select
          id="agent-picker"
          .value=${this.agentId}
          @change=${(event: Event) => {
            const agentId = (event.target as HTMLSelectElement).value;
            this.pick(agentId, mainSessionKey(agentId, agents.mainKey));
          }}
        >
          ${agents.agents.map(
            (agent) =>
              html`<option value=${agent.id} ?selected=${agent.id === this.agentId}>
                ${agent.name ? `${agent.name} (${agent.id})` : agent.id}
              </option>`,
          )}
        </select></label
      >
      <label
        >Session
        <select
          id="session-picker"
          .value=${shown}
          @change=${(event: Event) => this.pick(this.agentId, (event.target as HTMLSelectElement).value)}
        >
          <option value=${mainKey} ?selected=${shown === mainKey}>main session</option>
          ${others.map(
            (row) =>
              html`<option value=${row.key} ?selected=${shown === row.key}>
                ${row.label ?? row.displayName ?? row.key}
              </option>`,
          )}
          ${extra ? html`<option value=${shown} selected>${shown}</option>` : nothing}
        </select></label
      >
      <button type="button" id="new-session" @click=${() => this.newSession()}>New session</button>
    </div>`;
  }

  private renderActivity() {
    const activity = this.live.activity();
    if (!activity) return html`<p id="activity" class="activity muted" role="status"></p>`;
    const text =
      activity.kind === "tool"
        ? `running tool ${activity.name}…`
        : activity.kind === "thinking"
          ? "thinking…"
          : "writing…";
    return html`<p id="activity" class="activity muted" role="status">${text}</p>`;
  }

  override render() {
    const now = Date.now();
    const live = this.live.isLive();
    return html`<section class="chat" aria-label="Chat">
      ${this.renderPickers()}
      ${this.error ? html`<p id="chat-error" class="error" role="alert">${this.error}</p>` : nothing}
      <ol id="messages" class="messages" aria-live="polite">
        ${this.live.items.map((item) => itemView(item, now))}
      </ol>
      ${this.renderActivity()}
      <form id="composer" class="composer" @submit=${(event: Event) => {
        event.preventDefault();
        void this.send();
      }}>
        <textarea
          id="message-input"
          rows="2"
          placeholder="Message (Enter sends, Shift+Enter for a new line)"
          aria-label="Message"
          .value=${sessionStorage.getItem(DRAFT_KEY) ?? ""}
          @input=${() => this.saveDraft()}
          @keydown=${(event: KeyboardEvent) => this.onKeydown(event)}
        ></textarea>
        <button id="send" type="submit" class="primary">Send</button>
        ${live ? html`<button id="abort" type="button" class="danger" @click=${() => this.abort()}>Stop</button>` : nothing}
      </form>
    </section>`;
  }
}
