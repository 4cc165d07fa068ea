// The Control UI's Agents page (placeholder until its helper lands it).
import { html, LitElement } from "lit";
import type { UiContext } from "../ui-context.js";

/** The Agents page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class AgentsPage extends LitElement {
  static override properties = { ctx: { attribute: false }, query: { attribute: false } };
  declare ctx: UiContext;
  declare query: URLSearchParams;

  override render() {
    return html`<h1>Agents</h1>`;
  }
}
