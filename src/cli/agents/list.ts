// `pincer agents list [--bindings]`: every agent, where its files live, its sandbox mode (where its
// tools run), and what routes to it.
import { listAgents } from "../../agents/roster.js";
import { resolveRoster } from "../../config/resolve.js";
import type { Binding } from "../../protocol/config/index.js";
import {
  classifyBindingTier,
  normalizeAgentId,
  resolveDefaultAgentId,
} from "../../routing/index.js";
import {
  type AgentSandboxMode,
  resolveAgentSandboxMode,
} from "../../runtime/tools/sandbox-policy.js";
import type { InputOf } from "../command.js";
import { type CliContext, displayPath, printJson, printLine, style } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { listOptions } from "./commands.js";

/** One routing rule as shown under its agent. */
interface BindingRow {
  index: number;
  tier: string;
  rule: string;
  comment?: string;
}

/** Renders a binding's match as `channel accountId=… peer=kind:id guild=… team=… roles=…`. */
function describeBindingMatch(binding: Binding): string {
  const match = binding.match ?? {};
  const parts = [String(match.channel ?? "?")];
  // No accountId means the default account only: say so, it is the classic surprise.
  parts.push(
    match.accountId === undefined ? "accountId=default (implied)" : `accountId=${match.accountId}`,
  );
  if (match.peer) parts.push(`peer=${match.peer.kind}:${match.peer.id}`);
  if (match.guildId !== undefined) parts.push(`guild=${match.guildId}`);
  if (match.teamId !== undefined) parts.push(`team=${match.teamId}`);
  if (match.roles?.length) parts.push(`roles=${match.roles.join(",")}`);
  return parts.join(" ");
}

/** What `agents list` reports about an agent's sandbox (`--json`: the `sandbox` field). */
interface SandboxReport {
  mode: AgentSandboxMode["mode"];
  /** Config key that sets the mode; null when nothing does (default off). */
  source: string | null;
  /** Where exec, process and the file tools run: on the host, or in the sandbox (everywhere / outside main). */
  hostTools: "allowed" | "sandboxed" | "sandboxed-outside-main-session";
  mainSessionKey: string;
}

function sandboxReport(agent: AgentSandboxMode): SandboxReport {
  const hostTools =
    agent.mode === "off"
      ? "allowed"
      : agent.mode === "all"
        ? "sandboxed"
        : "sandboxed-outside-main-session";
  return {
    mode: agent.mode,
    source: agent.source ?? null,
    hostTools,
    mainSessionKey: agent.mainSessionKey,
  };
}

function describeSandbox(report: SandboxReport): string {
  if (report.mode === "off") return "off (tools run on the host, no isolation)";
  const where =
    report.mode === "all"
      ? "in every session"
      : `outside the main session ${report.mainSessionKey}`;
  return `${report.mode} — tools run in the sandbox ${where} (${report.source}; pincer sandbox explain)`;
}

/** Lists agents; `--bindings` adds each one's rules with the tier each competes in. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof listOptions>): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const cfg = loaded.config;
  const agents = listAgents(cfg, loaded.paths);
  const known = new Set(agents.map((agent) => agent.id));
  const sandboxes = new Map(
    agents.map((agent) => [
      agent.id,
      sandboxReport(resolveAgentSandboxMode(resolveRoster(cfg), agent.id)),
    ]),
  );
  const fallback = resolveDefaultAgentId(cfg);
  const rules = new Map<string, BindingRow[]>();
  (cfg.bindings ?? []).forEach((binding, index) => {
    const tier = classifyBindingTier(binding);
    if (!tier) return;
    const target = normalizeAgentId(binding.agentId);
    const owner = known.has(target) ? target : fallback;
    const row: BindingRow = { index, tier, rule: describeBindingMatch(binding) };
    if (binding.comment) row.comment = binding.comment;
    rules.set(owner, [...(rules.get(owner) ?? []), row]);
  });

  if (opts.json) {
    printJson(
      ctx,
      agents.map((agent) => ({
        ...agent,
        sandbox: sandboxes.get(agent.id),
        ...(opts.bindings ? { bindings: rules.get(agent.id) ?? [] } : {}),
      })),
    );
    return 0;
  }
  const s = style(ctx);
  const home = loaded.paths.home;
  printLine(
    ctx,
    s.bold(
      `Agents (${agents.length}) — ${displayPath(loaded.path, home)}${loaded.exists ? "" : " (not created yet: defaults)"}`,
    ),
  );
  for (const agent of agents) {
    const name = agent.name ? ` (${agent.name})` : "";
    const sandbox = sandboxes.get(agent.id)!;
    const flag = sandbox.mode === "off" ? "" : s.yellow(` [sandbox ${sandbox.mode}]`);
    printLine(
      ctx,
      `- ${s.cyan(agent.id)}${name}${agent.isDefault ? s.green(" [default]") : ""}${flag}`,
    );
    printLine(ctx, `    workspace  ${displayPath(agent.workspace, home)}`);
    printLine(ctx, `    agentDir   ${displayPath(agent.agentDir, home)}`);
    printLine(ctx, `    sessions   ${displayPath(agent.sessionsDir, home)}`);
    const fallbacks = agent.fallbacks.length ? ` (fallbacks: ${agent.fallbacks.join(", ")})` : "";
    printLine(ctx, `    model      ${agent.model ?? s.dim("not set")}${fallbacks}`);
    const text = describeSandbox(sandbox);
    printLine(ctx, `    sandbox    ${sandbox.mode === "off" ? s.dim(text) : s.yellow(text)}`);
    if (!opts.bindings) continue;
    const own = rules.get(agent.id) ?? [];
    if (own.length === 0) {
      printLine(
        ctx,
        `    routing    ${agent.isDefault ? "everything no binding matches (default agent)" : s.dim("no bindings")}`,
      );
      continue;
    }
    printLine(ctx, "    routing rules:");
    for (const row of own) {
      const comment = row.comment ? s.dim(`  # ${row.comment}`) : "";
      printLine(
        ctx,
        `      bindings[${row.index}] ${row.rule}  ${s.dim(`(${row.tier})`)}${comment}`,
      );
    }
    if (agent.isDefault) printLine(ctx, "      + everything no binding matches (default agent)");
  }
  return 0;
}
