// The Control UI's Logs page.
import { html, LitElement } from "lit";
import type { UiContext } from "../ui-context.js";

/** The Logs page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class LogsPage extends LitElement {
  static override properties = { ctx: { attribute: false }, query: { attribute: false } };
  declare ctx: UiContext;
  declare query: URLSearchParams;

  override createRenderRoot() {
    return this;
  }

  override render() {
    return html`<h1>Logs</h1>`;
  }
}
