// The Chat page's model: the shown session's items (transcript.ts) and what live runs add to them.
// `chat` events stream a run's text (text-deltas: rebuilt with nextChatText) into one bubble per
// stretch of text, `agent` tool events insert a collapsible tool entry between stretches, and the
// run's end marks its last bubble (stopped / failed with the error). Runs of every session are
// tracked (Stop shows for the session a run is in); only the shown session's events change items.
import { nextChatText } from "../../../client/text-deltas.js";
import { messageText, type WireMessage } from "./message-text.js";
import { type ChatItem, itemsFromHistory } from "./transcript.js";

/** A `chat` event as the page reads it. */
export interface ChatEvent {
  runId: string;
  sessionKey: string;
  state: "delta" | "final" | "aborted" | "error";
  deltaText?: string;
  replace?: boolean;
  message?: WireMessage;
  errorMessage?: string;
}

/** An `agent` event as the page reads it (the tool and lifecycle streams). */
export interface AgentEvent {
  runId: string;
  sessionKey?: string;
  stream: string;
  data: { phase?: string; toolCallId?: string; name?: string; args?: unknown; isError?: boolean };
}

/** What a live run is doing, for the status line. */
export type RunActivity =
  | { kind: "thinking" }
  | { kind: "writing" }
  | { kind: "tool"; name: string };

interface LiveRun {
  sessionKey: string;
  text: string;
  /** Run text before the current bubble (text after a tool call starts a new bubble). */
  offset: number;
  tools: number;
  activity: RunActivity;
}

/** The items of the shown session and the live runs. */
export class LiveChat {
  items: ChatItem[] = [];
  sessionKey = "";
  private readonly runs = new Map<string, LiveRun>();
  private nextId = 0;

  /** Shows `sessionKey`'s history (replacing the items). */
  showHistory(sessionKey: string, messages: WireMessage[]): void {
    this.sessionKey = sessionKey;
    this.items = itemsFromHistory(messages);
  }

  /** Adds the user's message; returns its id (to mark it unsent or remove it). */
  addUser(text: string, at: number): string {
    const id = `u${++this.nextId}`;
    this.items = [...this.items, { kind: "user", id, text, at }];
    return id;
  }

  /** Marks a user message the gateway refused, with the reason. */
  markUnsent(id: string, reason: string): void {
    this.items = this.items.map((item) =>
      item.id === id && item.kind === "user" ? { ...item, unsent: reason } : item,
    );
  }

  /** Removes an item (a message that was never sent: the text goes back into the composer). */
  remove(id: string): void {
    this.items = this.items.filter((item) => item.id !== id);
  }

  /** Registers a run this page started, before its first event. */
  startRun(runId: string, sessionKey: string): void {
    if (!this.runs.has(runId)) this.runs.set(runId, newRun(sessionKey));
  }

  /** Forgets a run (its send failed, or the connection dropped). */
  dropRun(runId: string): void {
    this.runs.delete(runId);
  }

  /** Forgets every live run (the connection dropped: their ends will not arrive). */
  clearRuns(): void {
    this.runs.clear();
    this.items = this.items.map((item) =>
      item.kind === "assistant" && item.streaming ? { ...item, streaming: false } : item,
    );
  }

  /** True when a run of the shown session is live. */
  isLive(): boolean {
    return [...this.runs.values()].some((run) => run.sessionKey === this.sessionKey);
  }

  /** What the shown session's live run is doing, if one is. */
  activity(): RunActivity | undefined {
    return [...this.runs.values()].find((run) => run.sessionKey === this.sessionKey)?.activity;
  }

  /** Applies a `chat` event; returns whether the run used tools (its history has their results). */
  onChat(chat: ChatEvent): { ended: boolean; usedTools: boolean } {
    const run = this.runs.get(chat.runId) ?? newRun(chat.sessionKey);
    run.text = nextChatText(run.text, chat).text;
    const ended = chat.state !== "delta";
    if (ended) this.runs.delete(chat.runId);
    else {
      this.runs.set(chat.runId, run);
      if (run.text.length > run.offset) run.activity = { kind: "writing" };
    }
    if (chat.sessionKey !== this.sessionKey) return { ended, usedTools: run.tools > 0 };
    // A single-stretch run shows the final message as delivered (with a usage footer, if any).
    const whole = chat.message && run.tools === 0 ? messageText(chat.message) : run.text;
    const text = run.tools === 0 ? whole : run.text.slice(run.offset);
    const error = typeof chat.errorMessage === "string" ? chat.errorMessage : undefined;
    const emptyFinal = chat.state === "final" && text === "";
    this.updateBubble({
      runId: chat.runId,
      skipCreate: emptyFinal,
      change: (item) => ({
        ...item,
        text: emptyFinal ? item.text : text,
        streaming: !ended,
        ...(chat.state === "aborted" || chat.state === "error" ? { end: chat.state } : {}),
        ...(error ? { error } : {}),
      }),
    });
    return { ended, usedTools: run.tools > 0 };
  }

  /** Applies an `agent` event (tool start/result, run start). */
  onAgent(event: AgentEvent): void {
    const run = this.runs.get(event.runId);
    if (event.stream === "lifecycle" && event.data.phase === "start" && event.sessionKey) {
      if (!run) this.runs.set(event.runId, newRun(event.sessionKey));
      return;
    }
    if (event.stream !== "tool" || !run) return;
    const { phase, toolCallId = "", name = "tool" } = event.data;
    if (phase === "start") {
      run.tools++;
      run.offset = run.text.length;
      run.activity = { kind: "tool", name };
      if (run.sessionKey !== this.sessionKey) return;
      this.items = [
        ...this.items.map((item) =>
          item.kind === "assistant" && item.runId === event.runId
            ? { ...item, streaming: false, runId: `${event.runId}:done` }
            : item,
        ),
        {
          kind: "tool",
          id: `t${++this.nextId}`,
          toolCallId,
          name,
          args: event.data.args,
          runId: event.runId,
          at: Date.now(),
        },
      ];
    } else if (phase === "result") {
      run.activity = { kind: "thinking" };
      this.items = this.items.map((item) =>
        item.kind === "tool" && item.toolCallId === toolCallId && item.runId === event.runId
          ? { ...item, result: { text: "", isError: event.data.isError === true } }
          : item,
      );
    }
  }

  /** Changes the run's current bubble (created on first use, unless `skipCreate`). */
  private updateBubble(params: {
    runId: string;
    change: (item: Extract<ChatItem, { kind: "assistant" }>) => ChatItem;
    skipCreate: boolean;
  }): void {
    const { runId, change, skipCreate } = params;
    const index = this.items.findIndex((item) => item.kind === "assistant" && item.runId === runId);
    if (index < 0) {
      if (skipCreate) return;
      const fresh = {
        kind: "assistant" as const,
        id: `a${++this.nextId}`,
        text: "",
        runId,
        at: Date.now(),
      };
      this.items = [...this.items, change(fresh)];
      return;
    }
    const next = [...this.items];
    next[index] = change(next[index] as Extract<ChatItem, { kind: "assistant" }>);
    this.items = next;
  }
}

function newRun(sessionKey: string): LiveRun {
  return { sessionKey, text: "", offset: 0, tools: 0, activity: { kind: "thinking" } };
}
