// How the Chat page draws its items: user and assistant bubbles with their times (the assistant's
// Markdown rendered safely, failed and stopped turns marked with the error), and tool calls as
// collapsible <details> with the arguments and, once known, the result.
import { html, nothing, type TemplateResult } from "lit";
import { markdownView } from "./markdown-view.js";
import { argsDetail, argsPreview, type ChatItem } from "./transcript.js";

/** `HH:MM` today, else the date and time; the full time in the element's datetime attribute. */
export function timeLabel(at: number, now: number): string {
  const when = new Date(at);
  const sameDay = new Date(now).toDateString() === when.toDateString();
  const time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return sameDay ? time : `${when.toLocaleDateString()} ${time}`;
}

function stamp(at: number | undefined, now: number) {
  if (at === undefined) return nothing;
  return html`<time datetime=${new Date(at).toISOString()}>${timeLabel(at, now)}</time>`;
}

function endNote(item: Extract<ChatItem, { kind: "assistant" }>) {
  if (!item.end || item.end === "final") return nothing;
  const label = item.end === "aborted" ? "stopped" : "failed";
  return html`<span class="note">${item.error ? `${label}: ${item.error}` : label}</span>`;
}

function toolView(item: Extract<ChatItem, { kind: "tool" }>, now: number): TemplateResult {
  const state = item.result === undefined ? "running" : item.result.isError ? "failed" : "done";
  const badge = state === "running" ? "warn" : state === "failed" ? "err" : "ok";
  const detail = argsDetail(item.args);
  return html`<li class="message tool" data-role="tool" data-state=${state}>
    <details>
      <summary>
        <span class="tool-name">${item.name}</span>
        <span class="badge ${badge}">${state}</span>
        <span class="muted args">${argsPreview(item.args)}</span>
      </summary>
      ${detail === "" ? nothing : html`<p class="muted">Arguments</p><pre><code>${detail}</code></pre>`}
      ${
        item.result && item.result.text !== ""
          ? html`<p class="muted">Result</p><pre class="result"><code>${item.result.text}</code></pre>`
          : nothing
      }
    </details>
    ${stamp(item.at, now)}
  </li>`;
}

/** One item of the list. */
export function itemView(item: ChatItem, now: number): TemplateResult {
  switch (item.kind) {
    case "user":
      return html`<li class="message user ${item.unsent ? "failed" : ""}" data-role="user">
        <div class="body">${item.text}</div>
        ${item.unsent ? html`<span class="note">not sent: ${item.unsent}</span>` : nothing}
        ${stamp(item.at, now)}
      </li>`;
    case "assistant": {
      const failed = item.end === "aborted" || item.end === "error";
      return html`<li
        class="message assistant ${item.streaming ? "streaming" : ""} ${failed ? "failed" : ""}"
        data-role="assistant"
        data-run-id=${item.runId ?? nothing}
        data-end=${failed ? (item.end ?? nothing) : nothing}
      >
        <div class="body markdown">${markdownView(item.text)}</div>
        ${endNote(item)} ${stamp(item.at, now)}
      </li>`;
    }
    case "tool":
      return toolView(item, now);
  }
}
