// agents.list (the roster, with each agent's directories, model, sandbox and tool policy, and the
// bindings that route to it, as `pincer agents list --bindings --json` reports them) and agents.route
// (`pincer agents route` over the gateway: agent, session key, matched tier and the reasoning).
// The bootstrap-file methods live in agents-files.ts and join this group.
import type { ResolvedConfig } from "../../config/index.js";
import {
  classifyBindingTier,
  explainAgentRoute,
  normalizeAgentId,
  normalizeMainKey,
} from "../../routing/index.js";
import { resolveToolPolicy } from "../../runtime/tools/policy.js";
import { resolveAgentSandboxMode } from "../../runtime/tools/sandbox-policy.js";
import { agentFileMethods } from "./agents-files.js";
import { type CallOf, defineMethod, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";

type BindingRow = { index: number; tier: string; match: Record<string, unknown>; comment?: string };

/** Routing rules by the agent they reach (an unknown agent's fall to the default one, as routing does). */
function bindingsByAgent(cfg: ResolvedConfig): Map<string, BindingRow[]> {
  const known = new Set(cfg.agents.map((agent) => agent.id));
  const rows = new Map<string, BindingRow[]>();
  (cfg.config.bindings ?? []).forEach((binding, index) => {
    const tier = classifyBindingTier(binding);
    if (!tier) return;
    const target = normalizeAgentId(binding.agentId);
    const owner = known.has(target) ? target : cfg.defaultAgentId;
    const row: BindingRow = { index, tier, match: { ...binding.match } };
    if (binding.comment) row.comment = binding.comment;
    rows.set(owner, [...(rows.get(owner) ?? []), row]);
  });
  return rows;
}

function hostTools(mode: string): string {
  if (mode === "off") return "allowed";
  return mode === "all" ? "sandboxed" : "sandboxed-outside-main-session";
}

function agentsList(_call: CallOf<"agents.list">, deps: Pick<MethodDeps, "config">) {
  const cfg = deps.config();
  const bindings = bindingsByAgent(cfg);
  const agents = cfg.agents.map((agent) => {
    const sandbox = resolveAgentSandboxMode(cfg, agent.id);
    const policy = resolveToolPolicy({ cfg, agentId: agent.id });
    return {
      id: agent.id,
      ...(agent.name ? { name: agent.name } : {}),
      ...(agent.model ? { model: agent.model } : {}),
      isDefault: agent.isDefault,
      workspace: agent.workspace,
      agentDir: agent.agentDir,
      fallbacks: agent.fallbacks,
      sandbox: {
        mode: sandbox.mode,
        source: sandbox.source ?? null,
        hostTools: hostTools(sandbox.mode),
      },
      tools: { profile: policy.profile, allowed: policy.allowedTools() },
      bindings: bindings.get(agent.id) ?? [],
    };
  });
  return ok({
    defaultId: cfg.defaultAgentId,
    mainKey: normalizeMainKey(cfg.config.session?.mainKey),
    scope: cfg.config.session?.scope ?? "per-sender",
    agents,
  });
}

function agentsRoute(call: CallOf<"agents.route">, deps: Pick<MethodDeps, "config">) {
  const { params } = call;
  return ok(
    explainAgentRoute({
      cfg: deps.config().config,
      channel: params.channel,
      accountId: params.accountId,
      peer: params.peer,
      parentPeer: params.parentPeer,
      guildId: params.guildId,
      teamId: params.teamId,
      memberRoleIds: params.memberRoleIds,
    }),
  );
}

/** The agents method group: every read needs operator.read; agents.files.set needs admin. */
export const agentRosterMethods = [
  defineMethod({
    name: "agents.list",
    scope: "operator.read",
    uses: ["config"],
    handler: agentsList,
  }),
  defineMethod({
    name: "agents.route",
    scope: "operator.read",
    uses: ["config"],
    handler: agentsRoute,
  }),
  ...agentFileMethods,
];
