// The Control UI's Channels page: every configured account with its state, identity, last inbound /
// outbound, last error and deliveries (`channels.status`; Probe asks each account's platform with
// `probe: true`), the DM pairing requests waiting for an operator (Approve / Reject through
// `channels.pairing.*`), and for WhatsApp Web the QR login (`web.login.*`) and Logout
// (`channels.logout`).
import { html, LitElement, nothing } from "lit";
import type { UiContext } from "../ui-context.js";
import { defineWhatsAppLogin, type LoginProgress } from "./channels-login.js";
import { ago, errorText } from "./devices-format.js";

/** One account as `channels.status` reports it (src/channels/account-status.ts). */
interface AccountRow {
  accountId: string;
  enabled: boolean;
  configured: boolean;
  running: boolean;
  connected: boolean;
  adapter?: false;
  identity?: { id: string; name?: string; username?: string };
  lastInboundAt?: number;
  lastOutboundAt?: number;
  lastError?: string;
  lastErrorAt?: number;
  restarts: number;
  queuedDeliveries: number;
  failedDeliveries: number;
  uncertainDeliveries: number;
  probe?: unknown;
}

interface ChannelsStatus {
  channelOrder: string[];
  channelLabels: Record<string, string>;
  channelAccounts: Record<string, AccountRow[]>;
}

/** A DM pairing request as `channels.pairing.list` lists it. */
interface PairingRow {
  channel: string;
  id: string;
  code: string;
  createdAt: string;
  meta: { accountId: string; name?: string; username?: string };
}

/** The channel whose accounts link by QR (`web.login.*` serve WhatsApp Web, as OpenClaw's). */
const QR_CHANNEL = "whatsapp";

function stateBadges(a: AccountRow) {
  if (a.adapter === false) return html`<span class="badge warn">no adapter in Pincer</span>`;
  if (!a.enabled) return html`<span class="badge">disabled</span>`;
  if (!a.configured) return html`<span class="badge warn">not configured</span>`;
  return html`<span class="badge ${a.running ? "ok" : "err"}">${a.running ? "running" : "stopped"}</span>
    <span class="badge ${a.connected ? "ok" : "warn"}">${a.connected ? "connected" : "not connected"}</span>`;
}

function probeText(probe: unknown): string {
  if (!probe || typeof probe !== "object") return "";
  const p = probe as {
    ok?: boolean;
    latencyMs?: number;
    error?: string;
    identity?: { username?: string; name?: string; id?: string };
  };
  if (p.ok === true) {
    const who = p.identity?.username ?? p.identity?.name ?? p.identity?.id ?? "";
    return `ok${who ? ` as ${who}` : ""}${p.latencyMs !== undefined ? ` (${p.latencyMs} ms)` : ""}`;
  }
  return `failed: ${p.error ?? "unknown error"}`;
}

function sender(r: PairingRow): string {
  const name = r.meta.name ?? r.meta.username ?? r.id;
  return r.meta.username && r.meta.username !== name ? `${name} (@${r.meta.username})` : name;
}

/** The Channels page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class ChannelsPage extends LitElement {
  static override properties = {
    ctx: { attribute: false },
    query: { attribute: false },
    channels: { state: true },
    pairing: { state: true },
    status: { state: true },
    error: { state: true },
    busy: { state: true },
    probed: { state: true },
    linking: { state: true },
  };
  declare ctx: UiContext;
  declare query: URLSearchParams;
  declare channels: ChannelsStatus | undefined;
  declare pairing: PairingRow[] | undefined;
  declare status: string;
  declare error: string;
  declare busy: boolean;
  declare probed: boolean;
  /** The WhatsApp account being linked by QR now, if any. */
  declare linking: string | undefined;
  private loadedFor: UiContext | undefined;

  constructor() {
    super();
    defineWhatsAppLogin();
    this.channels = undefined;
    this.pairing = undefined;
    this.status = "";
    this.error = "";
    this.busy = false;
    this.probed = false;
    this.linking = undefined;
  }

  override createRenderRoot() {
    return this;
  }

  override willUpdate(): void {
    if (this.ctx && this.loadedFor !== this.ctx) {
      this.loadedFor = this.ctx;
      void this.load(false);
    }
  }

  private async load(probe: boolean): Promise<void> {
    this.busy = true;
    const [status, pairing] = await Promise.all([
      this.ctx.request<ChannelsStatus>("channels.status", probe ? { probe: true } : {}, {
        timeoutMs: 30_000,
      }),
      this.ctx.request<{ requests: PairingRow[] }>("channels.pairing.list", {}),
    ]);
    this.busy = false;
    const failed = [status, pairing].find((r) => !r.ok);
    this.error = failed && !failed.ok ? errorText(failed.error) : "";
    if (status.ok) {
      this.channels = status.payload;
      this.probed = probe;
    }
    if (pairing.ok) this.pairing = pairing.payload.requests;
  }

  private async act(method: string, params: Record<string, unknown>, done: string): Promise<void> {
    this.busy = true;
    const res = await this.ctx.request(method, params);
    this.busy = false;
    if (res.ok) {
      this.error = "";
      this.status = done;
    } else {
      this.error = errorText(res.error);
    }
    await this.load(false);
  }

  private approve(r: PairingRow) {
    return this.act(
      "channels.pairing.approve",
      { channel: r.channel, code: r.code },
      `Approved ${sender(r)} on ${r.channel}: their next message gets an answer.`,
    );
  }

  private reject(r: PairingRow) {
    return this.act(
      "channels.pairing.dismiss",
      { channel: r.channel, code: r.code },
      `Rejected the pairing request of ${sender(r)} on ${r.channel}.`,
    );
  }

  private logout(channel: string, accountId: string) {
    if (!window.confirm(`Log out ${channel} account ${accountId}? Its credentials are removed.`)) {
      return Promise.resolve();
    }
    return this.act(
      "channels.logout",
      { channel, accountId },
      `Logged out ${channel} account ${accountId}.`,
    );
  }

  private loginDone(event: CustomEvent<LoginProgress | undefined>): void {
    this.linking = undefined;
    if (event.detail) this.status = event.detail.message;
    void this.load(false);
  }

  private renderAccounts(channel: string, accounts: AccountRow[]) {
    return html`<div class="table-scroll"><table class="channel-accounts stack">
      <thead><tr>
        <th scope="col">Account</th><th scope="col">State</th><th scope="col">Last in</th>
        <th scope="col">Last out</th><th scope="col">Last error</th><th scope="col">Deliveries</th>
        ${this.probed ? html`<th scope="col">Probe</th>` : nothing}
        ${channel === QR_CHANNEL ? html`<th scope="col">Actions</th>` : nothing}
      </tr></thead>
      <tbody>${accounts.map(
        (a) => html`<tr data-account=${`${channel}:${a.accountId}`}>
          <td><strong>${a.accountId}</strong>${
            a.identity
              ? html`<div class="muted">${a.identity.username ? `@${a.identity.username}` : (a.identity.name ?? a.identity.id)}</div>`
              : nothing
          }</td>
          <td data-label="State">${stateBadges(a)}${
            a.restarts > 0 ? html` <span class="muted">${a.restarts} restarts</span>` : nothing
          }</td>
          <td data-label="Last in">${ago(a.lastInboundAt)}</td>
          <td data-label="Last out">${ago(a.lastOutboundAt)}</td>
          <td data-label="Last error">${
            a.lastError
              ? html`<span class="error">${a.lastError}</span> <span class="muted">${ago(a.lastErrorAt)}</span>`
              : html`<span class="muted">none</span>`
          }</td>
          <td data-label="Deliveries">${a.queuedDeliveries} queued, ${a.failedDeliveries} failed${
            a.uncertainDeliveries > 0 ? `, ${a.uncertainDeliveries} uncertain` : ""
          }</td>
          ${this.probed ? html`<td data-label="Probe">${probeText(a.probe)}</td>` : nothing}
          ${
            channel === QR_CHANNEL
              ? html`<td class="actions">
                  <button type="button" ?disabled=${this.busy || this.linking !== undefined}
                    aria-label=${`Link WhatsApp account ${a.accountId} by QR code`}
                    @click=${() => {
                      this.linking = a.accountId;
                    }}>Link (QR)</button>
                  <button type="button" ?disabled=${this.busy}
                    aria-label=${`Log out WhatsApp account ${a.accountId}`}
                    @click=${() => this.logout(channel, a.accountId)}>Logout</button>
                </td>`
              : nothing
          }
        </tr>`,
      )}</tbody>
    </table></div>`;
  }

  private renderPairing(rows: PairingRow[]) {
    if (rows.length === 0) return html`<p class="muted">Nobody is waiting for approval.</p>`;
    return html`<div class="table-scroll"><table class="channel-pairing stack">
      <thead><tr>
        <th scope="col">Channel</th><th scope="col">Account</th><th scope="col">Sender</th>
        <th scope="col">Code</th><th scope="col">Asked</th><th scope="col">Actions</th>
      </tr></thead>
      <tbody>${rows.map(
        (r) => html`<tr data-code=${r.code}>
          <td>${r.channel}</td>
          <td data-label="Account">${r.meta.accountId}</td>
          <td data-label="Sender">${sender(r)} <span class="muted">${r.id}</span></td>
          <td data-label="Code"><code>${r.code}</code></td>
          <td data-label="Asked">${ago(Date.parse(r.createdAt))}</td>
          <td class="actions">
            <button type="button" ?disabled=${this.busy} aria-label=${`Approve ${sender(r)} on ${r.channel}`}
              @click=${() => this.approve(r)}>Approve</button>
            <button type="button" ?disabled=${this.busy} aria-label=${`Reject ${sender(r)} on ${r.channel}`}
              @click=${() => this.reject(r)}>Reject</button>
          </td>
        </tr>`,
      )}</tbody>
    </table></div>`;
  }

  override render() {
    const ch = this.channels;
    return html`<h1>Channels</h1>
      <div class="toolbar">
        <button type="button" ?disabled=${this.busy} @click=${() => this.load(false)}>Refresh</button>
        <button type="button" ?disabled=${this.busy} @click=${() => this.load(true)}
          aria-label="Probe every account (asks each platform who we are)">Probe</button>
      </div>
      <p class="status-line" role="status" aria-live="polite">${this.busy ? "Loading…" : this.status}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        this.linking !== undefined
          ? html`<pc-whatsapp-login .ctx=${this.ctx} .accountId=${this.linking}
              @done=${(e: CustomEvent<LoginProgress | undefined>) => this.loginDone(e)}></pc-whatsapp-login>`
          : nothing
      }
      <section class="card" aria-labelledby="channels-pairing-h">
        <h2 id="channels-pairing-h">Pairing requests${this.pairing ? ` (${this.pairing.length})` : ""}</h2>
        <p class="muted">Unknown senders of direct messages get a code; approve them to let them talk to the agent.</p>
        ${this.pairing ? this.renderPairing(this.pairing) : html`<p class="muted">Loading…</p>`}
      </section>
      ${
        ch && ch.channelOrder.length === 0
          ? html`<p class="muted">No channel is configured (add one under <code>channels</code> in Config).</p>`
          : nothing
      }
      ${(ch?.channelOrder ?? []).map(
        (id) => html`<section class="card" aria-labelledby=${`channel-${id}-h`}>
          <h2 id=${`channel-${id}-h`}>${ch?.channelLabels[id] ?? id}</h2>
          ${this.renderAccounts(id, ch?.channelAccounts[id] ?? [])}
        </section>`,
      )}`;
  }
}
