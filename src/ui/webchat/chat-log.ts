// The message list: history, the user's own sends, and one streaming bubble per live run whose text
// is replaced as deltas arrive and by the final. The assistant's text is rendered as Markdown built
// from DOM nodes (markdown-dom.ts); the user's text goes in with textContent only. The list is the
// scrolling element and sticks to the bottom as messages arrive unless the user scrolled up.
import { renderMarkdown } from "./markdown-dom.js";
import {
  displayRole,
  type MessageRole,
  messageText,
  runFailure,
  type WireMessage,
} from "./message-text.js";

/** How a run ended, as the bubble shows it. */
export type RunEnd = "final" | "aborted" | "error";

/** What a run's end carries: the reply text so far and, for a failed run, its error. */
export interface RunOutcome {
  end: RunEnd;
  text: string;
  error?: string;
}

/** How close (px) to the bottom still counts as "at the bottom" (reading the newest message). */
const STICK_DISTANCE_PX = 48;

/** Renders into the `<ol id="messages">` list. */
export class ChatLog {
  private readonly streaming = new Map<string, HTMLLIElement>();

  constructor(private readonly list: HTMLOListElement) {}

  /** Replaces everything with a session's history (failed and stopped runs shown as such). */
  showHistory(messages: WireMessage[]): void {
    this.list.replaceChildren();
    this.streaming.clear();
    for (const message of messages) {
      const role = displayRole(message);
      const text = messageText(message);
      const failure = role === "assistant" ? runFailure(message) : undefined;
      if (failure) this.markEnded(this.append("assistant", text), failure);
      else if (role && text !== "") this.append(role, text);
    }
    this.scrollToBottom();
  }

  /** Adds the user's message as sent (and follows it to the bottom). */
  addUser(text: string): HTMLLIElement {
    const item = this.append("user", text);
    this.scrollToBottom();
    return item;
  }

  /** Marks a user message the gateway never accepted, with the reason. */
  markUnsent(item: HTMLLIElement, reason: string): void {
    this.keepingBottom(() => {
      item.classList.add("failed");
      item.append(note(`not sent: ${reason}`));
    });
  }

  /** Shows a run's text so far (creates its bubble on the first delta). */
  streamRun(runId: string, text: string): void {
    this.keepingBottom(() => {
      let item = this.streaming.get(runId);
      if (!item) {
        item = this.append("assistant", "");
        item.classList.add("streaming");
        item.dataset.runId = runId;
        this.streaming.set(runId, item);
      }
      setBody(item, "assistant", text);
    });
  }

  /** Settles a run's bubble: the final text replaces the streamed one; aborts and errors get a note. */
  endRun(runId: string, outcome: RunOutcome): void {
    this.keepingBottom(() => {
      let item = this.streaming.get(runId);
      this.streaming.delete(runId);
      if (!item) {
        if (outcome.end === "final" && outcome.text === "") return;
        item = this.append("assistant", "");
        item.dataset.runId = runId;
      }
      item.classList.remove("streaming");
      if (outcome.end === "final" || outcome.text !== "") setBody(item, "assistant", outcome.text);
      if (outcome.end !== "final") this.markEnded(item, outcome);
    });
  }

  private markEnded(item: HTMLLIElement, outcome: Omit<RunOutcome, "text">): void {
    item.classList.add("failed");
    item.dataset.end = outcome.end;
    const label = outcome.end === "aborted" ? "stopped" : "failed";
    item.append(note(outcome.error ? `${label}: ${outcome.error}` : label));
  }

  private append(role: MessageRole, text: string): HTMLLIElement {
    const item = document.createElement("li");
    item.className = `message ${role}`;
    item.dataset.role = role;
    setBody(item, role, text);
    this.list.append(item);
    return item;
  }

  /** Runs a change, then scrolls to the bottom only if the list was at the bottom before it. */
  private keepingBottom(change: () => void): void {
    const list = this.list;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight <= STICK_DISTANCE_PX;
    change();
    if (atBottom) this.scrollToBottom();
  }

  private scrollToBottom(): void {
    this.list.scrollTop = this.list.scrollHeight;
  }
}

function note(text: string): HTMLSpanElement {
  const span = document.createElement("span");
  span.className = "note";
  span.textContent = text;
  return span;
}

/** Replaces a bubble's text: Markdown elements for the assistant, plain text for the user. */
function setBody(item: HTMLLIElement, role: MessageRole, text: string): void {
  let body = item.querySelector<HTMLDivElement>(":scope > .body");
  if (!body) {
    body = document.createElement("div");
    body.className = role === "assistant" ? "body markdown" : "body";
    item.prepend(body);
  }
  if (role === "assistant") body.replaceChildren(renderMarkdown(document, text));
  else body.textContent = text;
}
