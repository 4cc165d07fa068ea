// The Control UI's Agents page: the roster (agents.list: workspace, agentDir, model, sandbox and
// tool policy, the bindings that route to each agent), the route tester (agents.route, as
// `pincer agents route`), and the chosen agent's bootstrap files, viewable and editable
// (agents.files.list / get / set). `#/agents?agent=<id>` opens that agent's files.
import { html, LitElement, nothing, type PropertyValues } from "lit";
import type { UiContext } from "../ui-context.js";
import { filesEditor, type OpenFile } from "./agents-files.js";
import {
  type AgentFile,
  type AgentSummary,
  describeMatch,
  type RouteAnswer,
  routeParams,
} from "./agents-model.js";
import { routeTester } from "./agents-route.js";

/** The Agents page element; the shell sets `ctx` and `query` (the route's query parameters). */
export class AgentsPage extends LitElement {
  static override properties = {
    ctx: { attribute: false },
    query: { attribute: false },
    agents: { state: true },
    error: { state: true },
    chosen: { state: true },
    workspace: { state: true },
    files: { state: true },
    open: { state: true },
    fileBusy: { state: true },
    fileStatus: { state: true },
    fileError: { state: true },
    route: { state: true },
    routeError: { state: true },
    routeBusy: { state: true },
  };
  declare ctx: UiContext;
  declare query: URLSearchParams;
  declare agents: AgentSummary[] | undefined;
  declare error: string;
  declare chosen: string;
  declare workspace: string;
  declare files: AgentFile[];
  declare open: OpenFile | undefined;
  declare fileBusy: boolean;
  declare fileStatus: string;
  declare fileError: string;
  declare route: RouteAnswer | undefined;
  declare routeError: string;
  declare routeBusy: boolean;

  constructor() {
    super();
    this.error = "";
    this.chosen = "";
    this.workspace = "";
    this.files = [];
    this.fileBusy = false;
    this.fileStatus = "";
    this.fileError = "";
    this.routeError = "";
    this.routeBusy = false;
  }

  override createRenderRoot() {
    return this;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("ctx") && this.ctx) void this.loadRoster();
    else if (changed.has("query") && this.ctx && this.agents) {
      const wanted = this.query?.get("agent");
      if (wanted && wanted !== this.chosen) void this.choose(wanted);
    }
  }

  private async loadRoster(): Promise<void> {
    const res = await this.ctx.request<{ defaultId: string; agents: AgentSummary[] }>(
      "agents.list",
    );
    if (!res.ok) {
      this.error = `Could not list agents: ${res.error.message}`;
      return;
    }
    this.error = "";
    this.agents = res.payload.agents;
    const wanted = this.query?.get("agent");
    const known = res.payload.agents.some((agent) => agent.id === wanted);
    await this.choose(known && wanted ? wanted : res.payload.defaultId);
  }

  /** Shows one agent's bootstrap files. */
  private async choose(agentId: string): Promise<void> {
    this.chosen = agentId;
    this.open = undefined;
    this.fileStatus = "";
    this.fileError = "";
    const res = await this.ctx.request<{ workspace: string; files: AgentFile[] }>(
      "agents.files.list",
      { agentId },
    );
    if (this.chosen !== agentId) return;
    if (!res.ok) {
      this.fileError = `Could not list the files: ${res.error.message}`;
      this.files = [];
      return;
    }
    this.workspace = res.payload.workspace;
    this.files = res.payload.files;
  }

  private pick(agentId: string): void {
    this.ctx.navigate("agents", { agent: agentId });
    void this.choose(agentId);
  }

  private async openFile(name: string): Promise<void> {
    const agentId = this.chosen;
    this.fileError = "";
    this.fileStatus = "";
    const res = await this.ctx.request<{ file: AgentFile }>("agents.files.get", { agentId, name });
    if (this.chosen !== agentId) return;
    if (!res.ok) {
      this.fileError = `Could not open ${name}: ${res.error.message}`;
      return;
    }
    this.open = { file: res.payload.file, draft: res.payload.file.content ?? "" };
  }

  private async save(): Promise<void> {
    const open = this.open;
    if (!open) return;
    const agentId = this.chosen;
    this.fileBusy = true;
    const res = await this.ctx.request<{ file: AgentFile }>("agents.files.set", {
      agentId,
      name: open.file.name,
      content: open.draft,
    });
    this.fileBusy = false;
    if (!res.ok) {
      this.fileError = `Could not save ${open.file.name}: ${res.error.message}`;
      return;
    }
    this.fileError = "";
    this.fileStatus = `Saved ${open.file.name}.`;
    const file = res.payload.file;
    if (this.open?.file.name === file.name) this.open = { file, draft: this.open.draft };
    this.files = this.files.map((entry) =>
      entry.name === file.name ? { ...file, content: undefined } : entry,
    );
  }

  private async testRoute(data: FormData): Promise<void> {
    this.routeBusy = true;
    const res = await this.ctx.request<RouteAnswer>("agents.route", routeParams(data));
    this.routeBusy = false;
    if (!res.ok) {
      this.route = undefined;
      this.routeError = res.error.message;
      return;
    }
    this.routeError = "";
    this.route = res.payload;
  }

  private card(agent: AgentSummary) {
    const chosen = agent.id === this.chosen;
    return html`<article class=${chosen ? "card agent-card chosen" : "card agent-card"} data-agent=${agent.id}>
      <h2>
        ${agent.name ? `${agent.name} (${agent.id})` : agent.id}
        ${agent.isDefault ? html`<span class="badge ok">default</span>` : nothing}
      </h2>
      <dl class="facts">
        <dt>Model</dt><dd>${agent.model ?? "not set"}${agent.fallbacks?.length ? html` <span class="muted">→ ${agent.fallbacks.join(", ")}</span>` : nothing}</dd>
        <dt>Workspace</dt><dd><code>${agent.workspace}</code></dd>
        ${agent.agentDir ? html`<dt>Agent dir</dt><dd><code>${agent.agentDir}</code></dd>` : nothing}
        ${
          agent.sandbox
            ? html`<dt>Sandbox</dt><dd>${agent.sandbox.mode}${agent.sandbox.source ? html` <span class="muted">(${agent.sandbox.source})</span>` : nothing}
              <span class=${agent.sandbox.hostTools === "allowed" ? "badge" : "badge warn"}>host tools ${agent.sandbox.hostTools}</span></dd>`
            : nothing
        }
        ${
          agent.tools
            ? html`<dt>Tools</dt><dd>profile ${agent.tools.profile}
              <details><summary>${agent.tools.allowed.length} allowed</summary>${agent.tools.allowed.join(", ")}</details></dd>`
            : nothing
        }
        <dt>Bindings</dt>
        <dd>
          ${
            agent.bindings?.length
              ? html`<ul class="bindings">
                ${agent.bindings.map(
                  (
                    binding,
                  ) => html`<li><span class="badge">${binding.tier}</span> ${describeMatch(binding.match)}
                    <span class="muted">bindings[${binding.index}]${binding.comment ? ` · ${binding.comment}` : ""}</span></li>`,
                )}
              </ul>`
              : html`<span class="muted">${agent.isDefault ? "none (gets every unmatched message)" : "none"}</span>`
          }
        </dd>
      </dl>
      <button type="button" aria-pressed=${chosen ? "true" : "false"} @click=${() => this.pick(agent.id)}>
        Files of ${agent.id}
      </button>
    </article>`;
  }

  override render() {
    return html`<h1>Agents</h1>
      <p class="error" role="alert" ?hidden=${!this.error}>${this.error}</p>
      ${
        this.agents === undefined
          ? html`<p class="muted">Loading agents…</p>`
          : html`<div class="grid agents-grid">${this.agents.map((agent) => this.card(agent))}</div>`
      }
      <div class="grid agents-tools">
        ${
          this.chosen
            ? filesEditor({
                agentId: this.chosen,
                workspace: this.workspace,
                files: this.files,
                open: this.open,
                busy: this.fileBusy,
                status: this.fileStatus,
                error: this.fileError,
                onOpen: (name) => void this.openFile(name),
                onInput: (draft) => {
                  if (this.open) this.open = { ...this.open, draft };
                },
                onSave: () => void this.save(),
              })
            : nothing
        }
        ${routeTester({
          answer: this.route,
          error: this.routeError,
          busy: this.routeBusy,
          onSubmit: (data) => void this.testRoute(data),
        })}
      </div>`;
  }
}
