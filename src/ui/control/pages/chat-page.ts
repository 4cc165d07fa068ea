// The Control UI's Chat page.
import { html, LitElement } from "lit";
import type { UiContext } from "../ui-context.js";

/** The Chat page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class ChatPage extends LitElement {
  static override properties = { ctx: { attribute: false }, query: { attribute: false } };
  declare ctx: UiContext;
  declare query: URLSearchParams;

  override createRenderRoot() {
    return this;
  }

  override render() {
    return html`<h1>Chat</h1>`;
  }
}
