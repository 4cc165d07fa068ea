// The Control UI's Devices page: pending device pairing requests (Approve / Reject) and paired devices
// (Rotate token / Revoke tokens / Revoke pairing) over the gateway's device.* methods. It reloads on
// `device.pair.requested` / `device.pair.resolved`, so a new browser or phone asking to pair shows up
// here at once and can be let in from this already trusted one.
import { html, LitElement, nothing } from "lit";
import type { UiContext } from "../ui-context.js";
import { accessText, ago, errorText, shortId } from "./devices-format.js";

/** A pending request as `device.pair.list` lists it. */
interface PendingRow {
  requestId: string;
  deviceId: string;
  displayName?: string;
  platform: string;
  clientId: string;
  role: string;
  scopes: string[];
  remoteIp: string;
  ts: number;
  reason: string;
  approvedRoles: string[];
  approvedScopes: string[];
}

/** A paired device as `device.pair.list` lists it. */
interface PairedRow {
  deviceId: string;
  displayName?: string;
  platform: string;
  deviceFamily: string;
  clientId: string;
  roles: string[];
  scopes: string[];
  approvedAtMs: number;
  approvedBy: string;
  revokedAtMs?: number;
  connected: boolean;
  tokens: Array<{ issuedAtMs: number; lastUsedAtMs?: number; revokedAtMs?: number }>;
}

const DEVICE_EVENTS = new Set(["device.pair.requested", "device.pair.resolved"]);

/** Who a row is, for labels: its display name or client id, and a short device id. */
function who(row: { displayName?: string; clientId: string; deviceId: string }): string {
  return `${row.displayName ?? row.clientId} (${shortId(row.deviceId)})`;
}

/** The Devices page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class DevicesPage extends LitElement {
  static override properties = {
    ctx: { attribute: false },
    query: { attribute: false },
    pending: { state: true },
    paired: { state: true },
    status: { state: true },
    error: { state: true },
    busy: { state: true },
  };
  declare ctx: UiContext;
  declare query: URLSearchParams;
  declare pending: PendingRow[] | undefined;
  declare paired: PairedRow[] | undefined;
  declare status: string;
  declare error: string;
  declare busy: boolean;
  private unsubscribe: (() => void) | undefined;
  private attachedTo: UiContext | undefined;

  constructor() {
    super();
    this.pending = undefined;
    this.paired = undefined;
    this.status = "";
    this.error = "";
    this.busy = false;
  }

  override createRenderRoot() {
    return this;
  }

  /** Subscribes and loads for the current `ctx` (a reconnect gives the page a new one). */
  private attach(): void {
    if (this.attachedTo === this.ctx && this.unsubscribe) return;
    this.attachedTo = this.ctx;
    this.unsubscribe?.();
    this.unsubscribe = this.ctx.subscribe((event) => {
      if (DEVICE_EVENTS.has(event)) void this.load();
    });
    void this.load();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.ctx) this.attach();
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has("ctx") && this.ctx && this.isConnected) this.attach();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private async load(): Promise<void> {
    const res = await this.ctx.request<{ pending: PendingRow[]; paired: PairedRow[] }>(
      "device.pair.list",
      {},
    );
    if (!res.ok) {
      this.error = errorText(res.error);
      return;
    }
    this.error = "";
    this.pending = res.payload.pending;
    this.paired = res.payload.paired;
  }

  /** Runs one action, says what happened (or why not) and reloads the lists. */
  private async act(
    method: string,
    params: Record<string, unknown>,
    done: (payload: Record<string, unknown>) => string,
  ): Promise<void> {
    this.busy = true;
    const res = await this.ctx.request<Record<string, unknown>>(method, params);
    this.busy = false;
    if (res.ok) {
      this.error = "";
      this.status = done(res.payload);
    } else {
      this.error = errorText(res.error);
    }
    await this.load();
  }

  private approve(row: PendingRow) {
    return this.act(
      "device.pair.approve",
      { requestId: row.requestId },
      () => `Approved ${who(row)}: it gets its device token when it connects again.`,
    );
  }

  private reject(row: PendingRow) {
    return this.act(
      "device.pair.reject",
      { requestId: row.requestId },
      () => `Rejected ${who(row)}.`,
    );
  }

  private rotate(row: PairedRow) {
    return this.act(
      "device.token.rotate",
      { deviceId: row.deviceId, role: row.roles[0] ?? "operator" },
      (p) =>
        p.tokenDelivery === "in-band"
          ? "Token rotated for this device."
          : `Token rotated for ${who(row)}: its old tokens stopped working; it gets the new one when it reconnects with the gateway token.`,
    );
  }

  private revokeTokens(row: PairedRow) {
    return this.act(
      "device.token.revoke",
      { deviceId: row.deviceId, role: row.roles[0] ?? "operator" },
      () => `Revoked the tokens of ${who(row)}; its connections were closed. It stays paired.`,
    );
  }

  private unpair(row: PairedRow) {
    if (!window.confirm(`Revoke the pairing of ${who(row)}? It must be approved again.`)) {
      return Promise.resolve();
    }
    return this.act(
      "device.pair.remove",
      { deviceId: row.deviceId },
      () => `Revoked ${who(row)}: its connections were closed; it must be approved again.`,
    );
  }

  private renderPending(rows: PendingRow[]) {
    if (rows.length === 0) return html`<p class="muted">No device is waiting for approval.</p>`;
    return html`<div class="table-scroll"><table class="devices-pending stack">
      <thead><tr>
        <th scope="col">Device</th><th scope="col">Asks for</th><th scope="col">Has now</th>
        <th scope="col">Reason</th><th scope="col">From</th><th scope="col">Requested</th>
        <th scope="col">Actions</th>
      </tr></thead>
      <tbody>${rows.map(
        (r) => html`<tr data-request-id=${r.requestId}>
          <td><strong>${r.displayName ?? r.clientId}</strong>
            <div class="muted">${r.platform || "unknown platform"} · ${shortId(r.deviceId)}</div></td>
          <td data-label="Asks for">${accessText([r.role], r.scopes)}</td>
          <td data-label="Has now">${r.approvedRoles.length > 0 ? accessText(r.approvedRoles, r.approvedScopes) : "-"}</td>
          <td data-label="Reason"><span class="badge warn">${r.reason}</span></td>
          <td data-label="From">${r.remoteIp}</td>
          <td data-label="Requested">${ago(r.ts)}</td>
          <td class="actions">
            <button type="button" ?disabled=${this.busy} aria-label=${`Approve ${who(r)}`}
              @click=${() => this.approve(r)}>Approve</button>
            <button type="button" ?disabled=${this.busy} aria-label=${`Reject ${who(r)}`}
              @click=${() => this.reject(r)}>Reject</button>
          </td>
        </tr>`,
      )}</tbody>
    </table></div>`;
  }

  private renderPaired(rows: PairedRow[]) {
    if (rows.length === 0) return html`<p class="muted">No paired devices yet.</p>`;
    return html`<div class="table-scroll"><table class="devices-paired stack">
      <thead><tr>
        <th scope="col">Device</th><th scope="col">Status</th><th scope="col">Access</th>
        <th scope="col">Approved</th><th scope="col">Tokens</th><th scope="col">Last used</th>
        <th scope="col">Actions</th>
      </tr></thead>
      <tbody>${rows.map((d) => {
        const active = d.tokens.filter((t) => t.revokedAtMs === undefined).length;
        const lastUsed = Math.max(0, ...d.tokens.map((t) => t.lastUsedAtMs ?? 0));
        const revoked = d.revokedAtMs !== undefined;
        return html`<tr data-device-id=${d.deviceId}>
          <td><strong>${d.displayName ?? d.clientId}</strong>
            <div class="muted">${[d.platform, d.deviceFamily].filter(Boolean).join("/") || "unknown platform"}
              · ${shortId(d.deviceId)}</div></td>
          <td data-label="Status">${
            revoked
              ? html`<span class="badge err">revoked</span>`
              : html`<span class="badge ok">paired</span>${
                  d.connected ? html` <span class="badge ok">connected</span>` : nothing
                }`
          }</td>
          <td data-label="Access">${accessText(d.roles, d.scopes)}</td>
          <td data-label="Approved">${ago(d.approvedAtMs)} <span class="muted">by ${d.approvedBy}</span></td>
          <td data-label="Tokens">${active}</td>
          <td data-label="Last used">${ago(lastUsed || undefined)}</td>
          <td class="actions">${
            revoked
              ? html`<span class="muted">approve a new request to let it in</span>`
              : html`<button type="button" ?disabled=${this.busy}
                    aria-label=${`Rotate the token of ${who(d)}`} @click=${() => this.rotate(d)}>
                    Rotate token</button>
                  <button type="button" ?disabled=${this.busy}
                    aria-label=${`Revoke the tokens of ${who(d)}`} @click=${() => this.revokeTokens(d)}>
                    Revoke tokens</button>
                  <button type="button" class="danger" ?disabled=${this.busy}
                    aria-label=${`Revoke ${who(d)}`} @click=${() => this.unpair(d)}>Revoke</button>`
          }</td>
        </tr>`;
      })}</tbody>
    </table></div>`;
  }

  override render() {
    return html`<h1>Devices</h1>
      <div class="toolbar">
        <button type="button" @click=${() => this.load()}>Refresh</button>
        <span class="muted">Browsers, phones and CLIs that connect with a device identity.</span>
      </div>
      <p class="status-line" role="status" aria-live="polite">${this.status}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <section class="card" aria-labelledby="devices-pending-h">
        <h2 id="devices-pending-h">Pending requests${this.pending ? ` (${this.pending.length})` : ""}</h2>
        ${this.pending ? this.renderPending(this.pending) : html`<p class="muted">Loading…</p>`}
      </section>
      <section class="card" aria-labelledby="devices-paired-h">
        <h2 id="devices-paired-h">Paired devices${this.paired ? ` (${this.paired.length})` : ""}</h2>
        ${this.paired ? this.renderPaired(this.paired) : html`<p class="muted">Loading…</p>`}
      </section>`;
  }
}
