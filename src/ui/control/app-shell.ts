// The Control UI's frame: the header (gateway, connection status, theme, log out), the navigation
// (one link per page, the current one marked aria-current="page"), the login form, the pairing
// notice, and the routed page: a `pc-<name>-page` element given `ctx` and `query`. A page stays
// mounted across reconnects (its state kept) and gets a fresh `ctx` after each one.
import { html, LitElement, nothing } from "lit";
import type { HelloOk } from "../../protocol/gateway/index.js";
import type { ConnectionStatus, UiConnection } from "./connection.js";
import { PAGES, type PageName, parseRoute, type Route, routeHash } from "./routes.js";
import { applyTheme, nextTheme, type ThemeChoice } from "./theme.js";
import type { UiContext } from "./ui-context.js";

/** A page element as the shell drives it. */
type PageElement = HTMLElement & { ctx?: UiContext; query?: URLSearchParams };

const THEME_WORDS: Record<ThemeChoice, string> = { system: "auto", dark: "dark", light: "light" };

/** Status line text of a connection status. */
export function statusText(status: ConnectionStatus): string {
  switch (status.kind) {
    case "login":
      return "Not connected";
    case "connecting":
      return status.attempt > 0 ? "Reconnecting…" : "Connecting…";
    case "ready":
      return "Connected";
    case "refused":
      return "Not connected";
    case "pairing":
      return "Waiting for pairing approval";
    case "disconnected":
      return `Disconnected — reconnecting in ${Math.max(1, Math.round(status.retryInMs / 1000))} s`;
  }
}

/** The `<pc-app>` element. */
export class ControlApp extends LitElement {
  static override properties = {
    connection: { attribute: false },
    storage: { attribute: false },
    status: { state: true },
    route: { state: true },
    theme: { state: true },
    loginError: { state: true },
  };
  declare connection: UiConnection;
  /** localStorage, for the theme choice. */
  declare storage: Storage;
  declare status: ConnectionStatus;
  declare route: Route;
  declare theme: ThemeChoice;
  declare loginError: string | undefined;
  private hello: HelloOk | undefined;
  private ctx: UiContext | undefined;
  private page: PageElement | undefined;
  private readonly onHashChange = () => {
    this.route = parseRoute(window.location.hash);
  };

  constructor() {
    super();
    this.status = { kind: "connecting", attempt: 0 };
    this.route = parseRoute(window.location.hash);
    this.theme = "system";
    this.loginError = undefined;
  }

  override createRenderRoot() {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener("hashchange", this.onHashChange);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener("hashchange", this.onHashChange);
  }

  /** The connection reports here (main.ts wires it). */
  setStatus(status: ConnectionStatus): void {
    if (status.kind === "ready") {
      this.hello = status.hello;
      this.ctx = this.makeContext(status.hello);
      this.loginError = undefined;
    }
    if (status.kind === "refused") this.loginError = status.message;
    if (status.kind === "login" || status.kind === "refused") {
      this.hello = undefined;
      this.ctx = undefined;
    }
    this.status = status;
  }

  private makeContext(hello: HelloOk): UiContext {
    const connection = this.connection;
    return {
      request: (method, params, options) => connection.request(method, params, options),
      subscribe: (listener) => connection.subscribe(listener),
      hello,
      navigate: (page, query) => {
        window.location.hash = routeHash(page, query);
      },
    };
  }

  private toggleTheme(): void {
    this.theme = nextTheme(this.theme);
    applyTheme({ root: document.documentElement, storage: this.storage, choice: this.theme });
  }

  private submitLogin(event: SubmitEvent): void {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const input = form.elements.namedItem("token") as HTMLInputElement;
    const token = input.value.trim();
    if (token === "") return;
    input.value = "";
    this.connection.login(token);
  }

  override updated(): void {
    const host = this.querySelector<HTMLElement>("#page");
    if (!host || !this.ctx) {
      this.page?.remove();
      this.page = undefined;
      return;
    }
    const tag = `pc-${this.route.page}-page`;
    if (this.page?.localName !== tag) {
      this.page?.remove();
      this.page = document.createElement(tag) as PageElement;
    }
    if (this.page.ctx !== this.ctx) this.page.ctx = this.ctx;
    if (this.page.query?.toString() !== this.route.query.toString()) {
      this.page.query = this.route.query;
    }
    if (this.page.parentElement !== host) host.replaceChildren(this.page);
  }

  private renderNav(current: PageName) {
    return html`<nav class="nav" aria-label="Pages">
      <ul>
        ${PAGES.map(
          (page) => html`<li>
            <a href=${routeHash(page.name)} aria-current=${page.name === current ? "page" : nothing}
              >${page.label}</a
            >
          </li>`,
        )}
      </ul>
    </nav>`;
  }

  private renderLogin() {
    return html`<section class="login card" aria-labelledby="login-title">
      <h1 id="login-title">Log in to the gateway</h1>
      <p class="muted">
        Paste the gateway token (<code>gateway.auth.token</code>, or <code>pincer dashboard</code>
        prints a link that carries it).
      </p>
      ${this.loginError ? html`<p class="error" role="alert">Login failed: ${this.loginError}</p>` : nothing}
      <form id="login-form" @submit=${(event: SubmitEvent) => this.submitLogin(event)}>
        <label for="token-input">Gateway token</label>
        <input id="token-input" name="token" type="password" autocomplete="current-password" required />
        <button type="submit">Connect</button>
      </form>
    </section>`;
  }

  private renderPairing(status: Extract<ConnectionStatus, { kind: "pairing" }>) {
    const shortId = status.deviceId.slice(0, 12);
    const approve = status.requestId ?? "<request id>";
    return html`<section class="pairing card" role="status" aria-live="polite">
      <h1>This browser needs pairing approval</h1>
      <p>
        The gateway asked an operator to approve this device (<code>${shortId}</code>). On the gateway
        host run <code>pincer devices approve ${approve}</code>, or approve it on the Devices page of a
        browser that is already paired. This page retries every few seconds.
      </p>
      <p class="muted">Device id: <code class="wrap">${status.deviceId}</code></p>
    </section>`;
  }

  private renderMain() {
    const { status } = this;
    if (status.kind === "login" || status.kind === "refused") return this.renderLogin();
    if (status.kind === "pairing") return this.renderPairing(status);
    if (!this.ctx) return html`<p class="muted">${statusText(status)}</p>`;
    return nothing;
  }

  override render() {
    const { status } = this;
    const badge = status.kind === "ready" ? "ok" : status.kind === "refused" ? "err" : "warn";
    const loggedIn = this.hello !== undefined;
    const down = status.kind === "disconnected" && loggedIn;
    return html`<header class="bar">
        <a class="brand" href=${routeHash("overview")}>Pincer</a>
        <span class="gateway muted">${window.location.host}</span>
        <span id="status" class="badge ${badge}" role="status">${statusText(status)}</span>
        <span class="spacer"></span>
        <button
          type="button"
          class="quiet"
          aria-label="Theme: ${THEME_WORDS[this.theme]}"
          @click=${() => this.toggleTheme()}
        >
          <span class="wide-only">Theme:</span> ${THEME_WORDS[this.theme]}
        </button>
        ${loggedIn ? html`<button type="button" class="quiet" @click=${() => this.connection.logout()}>Log out</button>` : nothing}
      </header>
      ${this.renderNav(this.route.page)}
      ${down ? html`<p id="connection-error" class="error banner" role="alert">Disconnected from the gateway: ${status.reason}</p>` : nothing}
      <main id="main">${this.renderMain()}<div id="page"></div></main>`;
  }
}
