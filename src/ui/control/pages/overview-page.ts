// The Control UI's Overview (the landing page): the config file's problems at the top when it is
// invalid or a reload was refused, then the gateway (version, uptime, auth), the clients connected
// now (system-presence, refreshed on `presence` events), the channels at a glance (channels.status),
// the models and whether their provider has credentials (models.list), and recent delivery failures
// (channels.failures.list), each linking to its page.
import { html, LitElement, nothing } from "lit";
import {
  accountSummaries,
  type ChannelsStatus,
  type ConfigGetPayload,
  configProblems,
  uptimeWords,
} from "../overview/overview-data.js";
import type { UiContext } from "../ui-context.js";

/** One entry of `system-presence`. */
interface PresenceRow {
  ts: number;
  host?: string;
  mode?: string;
  platform?: string;
  version?: string;
  clientId?: string;
  reason?: string;
}

/** One model of `models.list`. */
interface ModelRow {
  id: string;
  name?: string;
  provider: string;
}

/** One dead letter of `channels.failures.list`. */
interface FailureRow {
  id: string;
  channel: string;
  accountId: string;
  state: string;
  failedAt?: number;
  error?: string;
}

/** One agent of `status` (its model: a ref, or `{ primary, fallbacks }`). */
interface StatusAgent {
  id: string;
  name?: string;
  model?: unknown;
}

/** The primary model ref of an agent's `model` setting, if it names one. */
function primaryModel(model: unknown): string | undefined {
  if (typeof model === "string") return model;
  const primary = (model as { primary?: unknown } | undefined)?.primary;
  return typeof primary === "string" ? primary : undefined;
}

/** A section's data: loading, loaded, or its error. */
type Loaded<T> =
  | { state: "loading" }
  | { state: "ok"; value: T }
  | { state: "error"; message: string };

const LOADING = { state: "loading" } as const;
/** Failures shown (the newest). */
const MAX_FAILURES = 5;

/** The Overview page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class OverviewPage extends LitElement {
  static override properties = {
    ctx: { attribute: false },
    query: { attribute: false },
    presence: { state: true },
    channels: { state: true },
    models: { state: true },
    agents: { state: true },
    failures: { state: true },
    config: { state: true },
  };
  declare ctx: UiContext;
  declare query: URLSearchParams;
  declare presence: Loaded<PresenceRow[]>;
  declare channels: Loaded<ChannelsStatus>;
  declare models: Loaded<ModelRow[]>;
  declare agents: Loaded<StatusAgent[]>;
  declare failures: Loaded<FailureRow[]>;
  declare config: Loaded<ConfigGetPayload>;
  private connectedAt = Date.now();
  private unsubscribe: (() => void) | undefined;

  constructor() {
    super();
    this.presence = LOADING;
    this.channels = LOADING;
    this.models = LOADING;
    this.agents = LOADING;
    this.failures = LOADING;
    this.config = LOADING;
  }

  override createRenderRoot() {
    return this;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (!changed.has("ctx") || !this.ctx) return;
    this.connectedAt = Date.now();
    this.unsubscribe ??= this.ctx.subscribe((event) => {
      if (event === "presence") void this.loadPresence();
    });
    void this.loadPresence();
    void this.load<ChannelsStatus>("channels.status", {}).then((value) => {
      this.channels = value;
    });
    void this.load<{ models: ModelRow[] }>("models.list", {}).then((value) => {
      this.models = value.state === "ok" ? { state: "ok", value: value.value.models } : value;
    });
    void this.load<{ agents: StatusAgent[] }>("status", {}).then((value) => {
      this.agents = value.state === "ok" ? { state: "ok", value: value.value.agents } : value;
    });
    void this.load<{ entries: FailureRow[] }>("channels.failures.list", {}).then((value) => {
      this.failures = value.state === "ok" ? { state: "ok", value: value.value.entries } : value;
    });
    void this.load<ConfigGetPayload>("config.get", {}).then((value) => {
      this.config = value;
    });
  }

  private async load<T>(method: string, params: Record<string, unknown>): Promise<Loaded<T>> {
    const outcome = await this.ctx.request<T>(method, params);
    return outcome.ok
      ? { state: "ok", value: outcome.payload }
      : { state: "error", message: `${method} failed: ${outcome.error.message}` };
  }

  private async loadPresence(): Promise<void> {
    this.presence = await this.load<PresenceRow[]>("system-presence", {});
  }

  private section<T>(loaded: Loaded<T>, body: (value: T) => unknown) {
    if (loaded.state === "loading") return html`<p class="muted">Loading…</p>`;
    if (loaded.state === "error") return html`<p class="error">${loaded.message}</p>`;
    return body(loaded.value);
  }

  private renderProblems() {
    if (this.config.state !== "ok") return nothing;
    const problems = configProblems(this.config.value);
    if (problems.length === 0) return nothing;
    return html`<section class="card problems" role="alert" aria-labelledby="problems-title">
      <h2 id="problems-title" class="error">The config file has problems</h2>
      <p class="muted">
        ${this.config.value.path ?? "openclaw.json"} — the gateway keeps running the last good config.
        Fix it on the <a href="#/config">Config</a> page.
      </p>
      <ul>
        ${problems.map((problem) => html`<li class="error">${problem}</li>`)}
      </ul>
    </section>`;
  }

  private renderGateway() {
    const { hello } = this.ctx;
    const snapshot = hello.snapshot as { uptimeMs?: number; authMode?: string; stateDir?: string };
    const uptime = (snapshot.uptimeMs ?? 0) + (Date.now() - this.connectedAt);
    return html`<section class="card" aria-labelledby="gateway-title">
      <h2 id="gateway-title">Gateway</h2>
      <dl class="facts">
        <dt>Version</dt>
        <dd id="gateway-version">${hello.server.version}</dd>
        <dt>Uptime</dt>
        <dd id="gateway-uptime">${uptimeWords(uptime)}</dd>
        <dt>Auth</dt>
        <dd>${snapshot.authMode ?? "unknown"}</dd>
        <dt>State dir</dt>
        <dd><code class="wrap">${snapshot.stateDir ?? ""}</code></dd>
      </dl>
    </section>`;
  }

  private renderPresence() {
    return html`<section class="card" aria-labelledby="clients-title">
      <h2 id="clients-title">Connected clients</h2>
      ${this.section(this.presence, (rows) =>
        rows.length === 0
          ? html`<p class="muted">None.</p>`
          : html`<ul id="presence" class="plain">
              ${rows.map(
                (row) => html`<li>
                  <strong>${row.host ?? row.clientId ?? "client"}</strong>
                  <span class="muted">${[row.mode, row.platform, row.version].filter(Boolean).join(" · ")}</span>
                </li>`,
              )}
            </ul>`,
      )}
    </section>`;
  }

  private renderChannels() {
    return html`<section class="card" aria-labelledby="channels-title">
      <h2 id="channels-title"><a href="#/channels">Channels</a></h2>
      ${this.section(this.channels, (status) => {
        const rows = accountSummaries(status);
        if (rows.length === 0) return html`<p class="muted">No channel is configured.</p>`;
        return html`<ul id="channel-summary" class="plain">
          ${rows.map(
            (row) => html`<li>
              ${row.label} <span class="muted">${row.accountId}</span>
              <span class="badge ${row.badge}">${row.state}</span>
              ${row.lastError ? html`<div class="muted small">${row.lastError}</div>` : nothing}
            </li>`,
          )}
        </ul>`;
      })}
    </section>`;
  }

  private renderModels() {
    const models = this.models;
    return html`<section class="card" aria-labelledby="models-title">
      <h2 id="models-title">Models</h2>
      ${this.section(this.agents, (agents) => {
        const known =
          models.state === "ok"
            ? new Set(models.value.map((model) => `${model.provider}/${model.id}`))
            : undefined;
        return html`<ul id="models" class="plain">
          ${agents.map((agent) => {
            const ref = primaryModel(agent.model);
            const found = ref !== undefined && known?.has(ref);
            const badge = !ref ? "warn" : known === undefined ? "warn" : found ? "ok" : "err";
            const word = !ref
              ? "default"
              : known === undefined
                ? "…"
                : found
                  ? "available"
                  : "not in the catalog";
            return html`<li>
              ${agent.name ?? agent.id}: <code>${ref ?? "(default)"}</code>
              <span class="badge ${badge}">${word}</span>
            </li>`;
          })}
        </ul>`;
      })}
      ${models.state === "ok" ? html`<p class="muted small">${models.value.length} models in the catalog.</p>` : nothing}
      ${models.state === "error" ? html`<p class="error">${models.message}</p>` : nothing}
    </section>`;
  }

  private renderFailures() {
    return html`<section class="card" aria-labelledby="failures-title">
      <h2 id="failures-title">Recent delivery failures</h2>
      ${this.section(this.failures, (entries) => {
        const failed = entries
          .filter((entry) => entry.state !== "queued")
          .sort((a, b) => (b.failedAt ?? 0) - (a.failedAt ?? 0))
          .slice(0, MAX_FAILURES);
        if (failed.length === 0) return html`<p class="muted">None.</p>`;
        return html`<ul id="failures" class="plain">
          ${failed.map(
            (entry) => html`<li>
              <span class="badge err">${entry.state}</span> ${entry.channel}/${entry.accountId}
              <div class="muted small">${entry.error ?? ""}</div>
            </li>`,
          )}
        </ul>`;
      })}
    </section>`;
  }

  override render() {
    if (!this.ctx) return nothing;
    return html`<h1>Overview</h1>
      ${this.renderProblems()}
      <div class="grid">
        ${this.renderGateway()} ${this.renderPresence()} ${this.renderChannels()}
        ${this.renderModels()} ${this.renderFailures()}
      </div>`;
  }
}
