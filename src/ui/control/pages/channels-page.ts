// The Control UI's Channels page (placeholder until its helper lands it).
import { html, LitElement } from "lit";
import type { UiContext } from "../ui-context.js";

/** The Channels page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class ChannelsPage extends LitElement {
  static override properties = { ctx: { attribute: false }, query: { attribute: false } };
  declare ctx: UiContext;
  declare query: URLSearchParams;

  override render() {
    return html`<h1>Channels</h1>`;
  }
}
