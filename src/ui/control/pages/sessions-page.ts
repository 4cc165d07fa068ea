// The Control UI's Sessions page (placeholder until its helper lands it).
import { html, LitElement } from "lit";
import type { UiContext } from "../ui-context.js";

/** The Sessions page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class SessionsPage extends LitElement {
  static override properties = { ctx: { attribute: false }, query: { attribute: false } };
  declare ctx: UiContext;
  declare query: URLSearchParams;

  override render() {
    return html`<h1>Sessions</h1>`;
  }
}
