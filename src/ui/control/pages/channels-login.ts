// The WhatsApp QR login panel of the Channels page: `web.login.start` shows the first QR code (the
// gateway's `qrDataUrl` image; the raw `qr` text in a <pre> when no image came), then
// `web.login.wait` is asked again and again — each answer is a newer QR, the link, or the end.
import { html, LitElement, nothing } from "lit";
import type { UiContext } from "../ui-context.js";
import { errorText } from "./devices-format.js";

/** What `web.login.start` / `web.login.wait` answer (src/channels/login.ts LoginProgress). */
export interface LoginProgress {
  state: "pending" | "linked" | "failed";
  connected: boolean;
  message: string;
  qr?: string;
  qrDataUrl?: string;
  reason?: string;
  e164?: string;
}

/** `<pc-whatsapp-login>`: links one WhatsApp Web account by QR; fires `done` when it ends. */
export class WhatsAppLogin extends LitElement {
  static override properties = {
    ctx: { attribute: false },
    accountId: { attribute: false },
    progress: { state: true },
    error: { state: true },
  };
  declare ctx: UiContext;
  declare accountId: string;
  declare progress: LoginProgress | undefined;
  declare error: string;
  /** Bumped on cancel/close: a wait answered after it is ignored. */
  private attempt = 0;

  constructor() {
    super();
    this.accountId = "default";
    this.progress = undefined;
    this.error = "";
  }

  override createRenderRoot() {
    return this;
  }

  /** Whether this element's login already started (it runs once per element). */
  private started = false;

  override willUpdate(): void {
    if (this.ctx && !this.started) {
      this.started = true;
      void this.run();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.attempt++;
  }

  private async run(): Promise<void> {
    const attempt = ++this.attempt;
    const params = { accountId: this.accountId };
    let res = await this.ctx.request<LoginProgress>("web.login.start", params, {
      timeoutMs: 60_000,
    });
    while (attempt === this.attempt) {
      if (!res.ok) {
        this.error = errorText(res.error);
        return;
      }
      this.progress = res.payload;
      if (res.payload.state !== "pending") {
        this.dispatchEvent(new CustomEvent("done", { detail: res.payload }));
        return;
      }
      res = await this.ctx.request<LoginProgress>("web.login.wait", params, { timeoutMs: 150_000 });
    }
  }

  private cancel(): void {
    this.attempt++;
    this.dispatchEvent(new CustomEvent("done", { detail: undefined }));
  }

  override render() {
    const p = this.progress;
    return html`<section class="card" aria-labelledby="wa-login-h">
      <h3 id="wa-login-h">Link WhatsApp account ${this.accountId}</h3>
      <p role="status" aria-live="polite">${p ? p.message : "Asking the gateway for a QR code…"}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        p?.state === "pending" && p.qrDataUrl
          ? html`<img class="qr" src=${p.qrDataUrl} width="264" height="264"
              alt="WhatsApp QR code: scan it in WhatsApp, Settings, Linked devices">`
          : p?.state === "pending" && p.qr
            ? html`<pre class="qr-text" aria-label="WhatsApp QR code text">${p.qr}</pre>`
            : nothing
      }
      <div class="toolbar">
        <button type="button" @click=${() => this.cancel()}>${
          p && p.state !== "pending" ? "Close" : "Cancel"
        }</button>
      </div>
    </section>`;
  }
}

/** Defines `<pc-whatsapp-login>` once (called by the Channels page, not on import). */
export function defineWhatsAppLogin(): void {
  if (!customElements.get("pc-whatsapp-login"))
    customElements.define("pc-whatsapp-login", WhatsAppLogin);
}
