// The WebChat controller: login, the agent/session selection (the agent's main session by default),
// history, sends, the live run's stream and its abort button, and the connection status line.
import { nextChatText } from "../../client/text-deltas.js";
import type { ErrorShape } from "../../protocol/gateway/schema.js";
import { ChatLog } from "./chat-log.js";
import type { WebChatElements } from "./elements.js";
import {
  GatewaySocket,
  type RequestOutcome,
  randomId,
  type SocketStatus,
} from "./gateway-socket.js";
import type { WireMessage } from "./message-text.js";
import { messageText } from "./message-text.js";
import {
  type AgentsListPayload,
  fillAgentPicker,
  fillSessionPicker,
  mainSessionKey,
  type SessionRow,
} from "./pickers.js";
import type { TokenStore } from "./token-store.js";

/**
 * A `chat` event as WebChat reads it (emitted per run by the gateway's run tracker). The socket
 * declares `text-deltas`: a delta carries the added text (`deltaText`, or the whole text so far
 * with `replace`), the final and aborted events the whole `message`.
 */
interface ChatEvent {
  runId: string;
  sessionKey: string;
  state: "delta" | "final" | "aborted" | "error";
  deltaText?: string;
  replace?: boolean;
  message?: WireMessage;
  errorMessage?: string;
}

/** What the app needs from the page. */
export interface WebChatDeps {
  elements: WebChatElements;
  tokens: TokenStore;
  /** Remembers the selected agent/session across reloads of this tab. */
  storage: Storage;
  /** `ws://host:port` of the gateway. */
  url: string;
  version: string;
}

const SELECTION_KEY = "pincer.webchat.selection";
/** The composer's unsent text, kept across reconnects and reloads of this tab. */
const DRAFT_KEY = "pincer.webchat.draft";

function describeError(error: ErrorShape): string {
  const code = (error.details as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? `${error.message} [${code}]` : error.message;
}

/** The running page. */
export class WebChatApp {
  private socket: GatewaySocket | undefined;
  private readonly log: ChatLog;
  private agents: AgentsListPayload | undefined;
  private agentId = "";
  private sessionKey = "";
  /** True between a `ready` status and the next drop: sends are refused (text kept) otherwise. */
  private connected = false;
  /** A send whose answer was lost with the connection: resending the same text reuses its key, so
   *  the gateway's dedupe runs it at most once. */
  private unanswered: { text: string; idempotencyKey: string } | undefined;
  /** Live runs seen (runId → sessionKey), from sends and from other clients' deltas. */
  private readonly liveRuns = new Map<string, string>();
  /** The streamed text so far of each live run, rebuilt from its deltas. */
  private readonly runTexts = new Map<string, string>();

  constructor(private readonly deps: WebChatDeps) {
    this.log = new ChatLog(deps.elements.messages);
  }

  /** Wires the page and connects when a token is known, else shows the login form. */
  start(): void {
    const { elements } = this.deps;
    elements.loginForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const token = elements.tokenInput.value.trim();
      if (token === "") return;
      this.deps.tokens.set(token);
      elements.tokenInput.value = "";
      this.connect(token);
    });
    elements.logout.addEventListener("click", () => this.logout());
    elements.agentPicker.addEventListener("change", () => {
      void this.selectAgent(elements.agentPicker.value);
    });
    elements.sessionPicker.addEventListener("change", () => {
      void this.selectSession(elements.sessionPicker.value);
    });
    elements.composer.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.send();
    });
    elements.messageInput.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        void this.send();
      }
    });
    elements.abort.addEventListener("click", () => {
      void this.abort();
    });
    elements.messageInput.value = this.deps.storage.getItem(DRAFT_KEY) ?? "";
    elements.messageInput.addEventListener("input", () => this.saveDraft());
    const token = this.deps.tokens.get();
    if (token) this.connect(token);
    else this.showLogin("Enter the gateway token to connect.");
  }

  private connect(token: string): void {
    this.socket?.close();
    this.showError(undefined);
    this.socket = new GatewaySocket({
      url: this.deps.url,
      token,
      clientVersion: this.deps.version,
      onStatus: (status) => this.onStatus(status),
      onEvent: (event, payload) => this.onEvent(event, payload),
    });
    this.socket.start();
  }

  private logout(): void {
    this.socket?.close();
    this.socket = undefined;
    this.deps.tokens.clear();
    this.showLogin("Logged out.");
  }

  private showLogin(status: string): void {
    const { elements } = this.deps;
    elements.chat.hidden = true;
    elements.login.hidden = false;
    elements.status.textContent = status;
    elements.tokenInput.focus();
  }

  private showError(message: string | undefined): void {
    const { error } = this.deps.elements;
    error.textContent = message ?? "";
    error.hidden = message === undefined;
  }

  private onStatus(status: SocketStatus): void {
    const { elements } = this.deps;
    this.connected = status.kind === "ready";
    if (status.kind === "connecting") {
      elements.status.textContent = status.attempt ? "Reconnecting…" : "Connecting…";
    } else if (status.kind === "ready") {
      elements.status.textContent = "Connected";
      this.showError(undefined);
      elements.login.hidden = true;
      elements.chat.hidden = false;
      // sessions.changed is sent only to subscribers: it refreshes the session list.
      void this.call("sessions.subscribe", {});
      void this.loadAgents();
    } else if (status.kind === "refused") {
      this.deps.tokens.clear();
      this.showLogin("Not connected");
      this.showError(`Login failed: ${describeError(status.error)}`);
    } else {
      const seconds = Math.max(1, Math.round(status.retryInMs / 1000));
      elements.status.textContent = `Disconnected — reconnecting in ${seconds} s`;
      this.showError(`Disconnected from the gateway: ${status.reason}`);
      this.liveRuns.clear();
      this.runTexts.clear();
      this.updateAbort();
    }
  }

  private onEvent(event: string, payload: unknown): void {
    if (event === "chat") this.onChat(payload as ChatEvent);
    else if (event === "sessions.changed") void this.loadSessions();
  }

  private onChat(chat: ChatEvent): void {
    const streamed = nextChatText(this.runTexts.get(chat.runId) ?? "", chat).text;
    if (chat.state === "delta") {
      this.liveRuns.set(chat.runId, chat.sessionKey);
      this.runTexts.set(chat.runId, streamed);
    } else {
      this.liveRuns.delete(chat.runId);
      this.runTexts.delete(chat.runId);
    }
    this.updateAbort();
    if (chat.sessionKey !== this.sessionKey) return;
    // A gateway without the cap sends the whole text with each delta; an error carries none.
    const text = chat.message ? messageText(chat.message) : streamed;
    if (chat.state === "delta") this.log.streamRun(chat.runId, text);
    else if (chat.state === "final") this.log.endRun(chat.runId, { end: "final", text });
    else {
      const error = typeof chat.errorMessage === "string" ? chat.errorMessage : undefined;
      this.log.endRun(chat.runId, { end: chat.state, text, ...(error ? { error } : {}) });
    }
  }

  private async call<T>(method: string, params?: unknown): Promise<T | undefined> {
    const socket = this.socket;
    if (!socket) return undefined;
    const outcome: RequestOutcome<T> = await socket.request<T>(method, params);
    if (outcome.ok) return outcome.payload;
    this.showError(`${method} failed: ${describeError(outcome.error)}`);
    return undefined;
  }

  private async loadAgents(): Promise<void> {
    const agents = await this.call<AgentsListPayload>("agents.list", {});
    if (!agents) return;
    this.agents = agents;
    const saved = this.savedSelection();
    const agentId = agents.agents.some((agent) => agent.id === saved?.agentId)
      ? (saved?.agentId ?? agents.defaultId)
      : agents.defaultId;
    fillAgentPicker(this.deps.elements.agentPicker, agents.agents, agentId);
    await this.selectAgent(agentId, saved?.agentId === agentId ? saved.sessionKey : undefined);
  }

  private async selectAgent(agentId: string, sessionKey?: string): Promise<void> {
    if (!this.agents) return;
    this.agentId = agentId;
    await this.selectSession(sessionKey ?? mainSessionKey(agentId, this.agents.mainKey));
  }

  private async selectSession(sessionKey: string): Promise<void> {
    this.sessionKey = sessionKey;
    this.deps.storage.setItem(SELECTION_KEY, JSON.stringify({ agentId: this.agentId, sessionKey }));
    this.updateAbort();
    await this.loadSessions();
    const history = await this.call<{ messages?: WireMessage[] }>("chat.history", { sessionKey });
    if (history && this.sessionKey === sessionKey) this.log.showHistory(history.messages ?? []);
  }

  private async loadSessions(): Promise<void> {
    if (!this.agents || this.agentId === "") return;
    const agentId = this.agentId;
    const listed = await this.call<{ sessions?: SessionRow[] }>("sessions.list", { agentId });
    if (!listed || agentId !== this.agentId) return;
    fillSessionPicker(this.deps.elements.sessionPicker, {
      mainKey: mainSessionKey(agentId, this.agents.mainKey),
      sessions: listed.sessions ?? [],
      selected: this.sessionKey,
    });
  }

  private savedSelection(): { agentId: string; sessionKey: string } | undefined {
    const raw = this.deps.storage.getItem(SELECTION_KEY);
    if (!raw) return undefined;
    try {
      const parsed = JSON.parse(raw) as { agentId?: unknown; sessionKey?: unknown };
      if (typeof parsed.agentId !== "string" || typeof parsed.sessionKey !== "string") {
        return undefined;
      }
      return { agentId: parsed.agentId, sessionKey: parsed.sessionKey };
    } catch (err) {
      console.warn("webchat: ignoring an unreadable saved selection", err);
      return undefined;
    }
  }

  private async send(): Promise<void> {
    const input = this.deps.elements.messageInput;
    const text = input.value.trim();
    if (text === "" || this.sessionKey === "") return;
    if (!this.connected) {
      this.showError("Not connected: your message is kept here; send it again once reconnected.");
      return;
    }
    const sessionKey = this.sessionKey;
    const idempotencyKey =
      this.unanswered?.text === text ? this.unanswered.idempotencyKey : randomId();
    this.unanswered = undefined;
    input.value = "";
    this.saveDraft();
    const sent = this.log.addUser(text);
    this.liveRuns.set(idempotencyKey, sessionKey);
    this.updateAbort();
    const outcome = await this.socket?.request<{ runId: string }>("chat.send", {
      sessionKey,
      message: text,
      idempotencyKey,
    });
    if (outcome?.ok) return;
    this.liveRuns.delete(idempotencyKey);
    this.updateAbort();
    const reason = outcome ? describeError(outcome.error) : "not connected";
    if (outcome?.error.code === "UNAVAILABLE") this.unanswered = { text, idempotencyKey };
    this.log.markUnsent(sent, reason);
    this.showError(`chat.send failed: ${reason}`);
    // Give the text back unless the user has started typing something new.
    if (input.value.trim() === "") {
      input.value = text;
      this.saveDraft();
    }
  }

  private saveDraft(): void {
    const draft = this.deps.elements.messageInput.value;
    if (draft === "") this.deps.storage.removeItem(DRAFT_KEY);
    else this.deps.storage.setItem(DRAFT_KEY, draft);
  }

  private async abort(): Promise<void> {
    if (this.sessionKey === "") return;
    await this.call("chat.abort", { sessionKey: this.sessionKey });
  }

  private updateAbort(): void {
    const live = [...this.liveRuns.values()].includes(this.sessionKey);
    this.deps.elements.abort.hidden = !live;
  }
}
