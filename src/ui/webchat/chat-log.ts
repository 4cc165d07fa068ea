// The message list: history, the user's own sends, and one streaming bubble per live run whose text
// is replaced as deltas arrive and by the final. Text goes in with textContent only, never as HTML.
import { displayRole, type MessageRole, messageText, type WireMessage } from "./message-text.js";

/** How a run ended, as the bubble shows it. */
export type RunEnd = "final" | "aborted" | "error";

/** Renders into the `<ol id="messages">` list. */
export class ChatLog {
  private readonly streaming = new Map<string, HTMLLIElement>();

  constructor(private readonly list: HTMLOListElement) {}

  /** Replaces everything with a session's history. */
  showHistory(messages: WireMessage[]): void {
    this.list.replaceChildren();
    this.streaming.clear();
    for (const message of messages) {
      const role = displayRole(message);
      const text = messageText(message);
      if (role && text !== "") this.append(role, text);
    }
    this.scroll();
  }

  /** Adds the user's message as sent. */
  addUser(text: string): void {
    this.append("user", text);
    this.scroll();
  }

  /** Shows a run's text so far (creates its bubble on the first delta). */
  streamRun(runId: string, text: string): void {
    let item = this.streaming.get(runId);
    if (!item) {
      item = this.append("assistant", "");
      item.classList.add("streaming");
      item.dataset.runId = runId;
      this.streaming.set(runId, item);
    }
    item.textContent = text;
    this.scroll();
  }

  /** Settles a run's bubble: the final text replaces the streamed one; aborts and errors get a note. */
  endRun(runId: string, end: RunEnd, text: string): void {
    let item = this.streaming.get(runId);
    this.streaming.delete(runId);
    if (!item) {
      if (end === "final" && text === "") return;
      item = this.append("assistant", "");
      item.dataset.runId = runId;
    }
    item.classList.remove("streaming");
    if (end === "final" || text !== "") item.textContent = text;
    if (end !== "final") {
      item.classList.add("failed");
      const note = document.createElement("span");
      note.className = "note";
      note.textContent = end === "aborted" ? "stopped" : "failed";
      item.append(note);
    }
    this.scroll();
  }

  private append(role: MessageRole, text: string): HTMLLIElement {
    const item = document.createElement("li");
    item.className = `message ${role}`;
    item.dataset.role = role;
    item.textContent = text;
    this.list.append(item);
    return item;
  }

  private scroll(): void {
    this.list.scrollTop = this.list.scrollHeight;
  }
}
