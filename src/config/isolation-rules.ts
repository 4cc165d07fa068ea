// Semantic checks the schema cannot express: agents must not share state directories, bindings must
// name real agents, open DMs must be opted into explicitly, and a sandboxed agent whose sandbox
// cannot be set up (a bad bind, a bind exposing the state dir) is flagged. Pure over (config, paths).
import { resolve } from "node:path";
import { closestMatch } from "../lib/edit-distance.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import { DEFAULT_AGENT_ID, normalizeAgentId } from "../routing/ids.js";
import { resolveSandboxSpec } from "../runtime/sandbox/spec.js";
import { listSandboxedAgents } from "../runtime/tools/sandbox-policy.js";
import {
  formatConfigPath,
  isPlainObject,
  type PathSegment,
  parseConfigPath,
} from "./config-path.js";
import type { StatePaths } from "./paths.js";
import { type ResolvedAgent, resolveConfig } from "./resolve.js";

/** One semantic problem, located by path segments. */
export interface RuleIssue {
  severity: "error" | "warning";
  segments: PathSegment[];
  message: string;
}

/** Peer kinds a binding may match on. */
const PEER_KINDS = ["direct", "dm", "group", "channel"] as const;

interface AgentSlot {
  id: string;
  rawId: unknown;
  path: PathSegment[];
  entry: Record<string, unknown>;
}

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Agent entries in roster order with their config paths; non-object entries are skipped. */
function agentSlots(agents: Record<string, unknown>): AgentSlot[] {
  if (isPlainObject(agents.entries)) {
    return Object.entries(agents.entries)
      .filter((pair): pair is [string, Record<string, unknown>] => isPlainObject(pair[1]))
      .map(([key, entry]) => ({
        id: str(entry.id) ?? key,
        rawId: entry.id ?? key,
        path: ["agents", "entries", key],
        entry,
      }));
  }
  if (!Array.isArray(agents.list)) return [];
  return agents.list.flatMap((entry, index) =>
    isPlainObject(entry)
      ? [{ id: str(entry.id) ?? "", rawId: entry.id, path: ["agents", "list", index], entry }]
      : [],
  );
}

function checkIds(slots: AgentSlot[], out: RuleIssue[]): AgentSlot[] {
  const seen = new Map<string, AgentSlot>();
  const unique: AgentSlot[] = [];
  for (const slot of slots) {
    const normalized = normalizeAgentId(slot.id);
    const idPath = Object.hasOwn(slot.entry, "id") ? [...slot.path, "id"] : slot.path;
    if (typeof slot.rawId === "string" && normalized !== slot.id) {
      const message = `agent id ${JSON.stringify(slot.id)} is not normalized; it will be used as ${JSON.stringify(normalized)}`;
      out.push({ severity: "warning", segments: idPath, message });
    }
    const first = seen.get(normalized);
    if (first) {
      const message = `duplicate agent id ${JSON.stringify(normalized)} (also ${formatConfigPath(first.path)}); every agent needs its own id`;
      out.push({ severity: "error", segments: idPath, message });
      continue;
    }
    seen.set(normalized, slot);
    unique.push({ ...slot, id: normalized });
  }
  return unique;
}

function checkSharedDirs(params: {
  config: Record<string, unknown>;
  paths: StatePaths;
  slots: AgentSlot[];
  out: RuleIssue[];
}): void {
  const { config, paths, slots, out } = params;
  const byAgentDir = new Map<string, AgentSlot>();
  const byWorkspace = new Map<string, AgentSlot>();
  // The one roster resolution (tolerates any shape; first entry wins for a duplicated id).
  const resolved = new Map<string, ResolvedAgent>();
  for (const agent of resolveConfig({ config: config as OpenClawConfig, paths }).agents)
    resolved.set(agent.id, agent);
  for (const slot of slots) {
    const agent = resolved.get(slot.id);
    if (!agent) continue;
    const agentDir = resolve(agent.agentDir);
    const workspace = resolve(agent.workspace);
    const sameDir = byAgentDir.get(agentDir);
    if (sameDir) {
      const at = Object.hasOwn(slot.entry, "agentDir") ? [...slot.path, "agentDir"] : slot.path;
      const message = `agents ${JSON.stringify(sameDir.id)} and ${JSON.stringify(slot.id)} share agentDir ${JSON.stringify(agentDir)}: auth profiles and sessions would collide`;
      out.push({ severity: "error", segments: at, message });
    } else {
      byAgentDir.set(agentDir, slot);
    }
    const sameWorkspace = byWorkspace.get(workspace);
    if (sameWorkspace) {
      const at = Object.hasOwn(slot.entry, "workspace") ? [...slot.path, "workspace"] : slot.path;
      const message = `agents ${JSON.stringify(sameWorkspace.id)} and ${JSON.stringify(slot.id)} share workspace ${JSON.stringify(workspace)}: their bootstrap files and memory would mix`;
      out.push({ severity: "warning", segments: at, message });
    } else {
      byWorkspace.set(workspace, slot);
    }
  }
}

function checkDefaults(slots: AgentSlot[], out: RuleIssue[]): void {
  const marked = slots.filter((slot) => slot.entry.default === true);
  for (const extra of marked.slice(1)) {
    const winner = marked[0];
    const message = `more than one agent has default: true; ${JSON.stringify(normalizeAgentId(winner.id))} (${formatConfigPath(winner.path)}) wins because it comes first`;
    out.push({ severity: "warning", segments: [...extra.path, "default"], message });
  }
}

function checkBindings(config: Record<string, unknown>, slots: AgentSlot[]): RuleIssue[] {
  const out: RuleIssue[] = [];
  if (!Array.isArray(config.bindings)) return out;
  const known = slots.length > 0 ? slots.map((slot) => slot.id) : [DEFAULT_AGENT_ID];
  const fallback = slots.length > 0 ? defaultAgentOf(slots) : DEFAULT_AGENT_ID;
  config.bindings.forEach((binding, index) => {
    if (!isPlainObject(binding)) return;
    const agentId = str(binding.agentId);
    if (agentId !== undefined && !known.includes(normalizeAgentId(agentId))) {
      const suggestion = closestMatch(agentId, known);
      const hint = suggestion ? ` Did you mean ${JSON.stringify(suggestion)}?` : "";
      const configured =
        slots.length > 0
          ? `configured agents: ${known.join(", ")}`
          : `no agents are configured, so only "${DEFAULT_AGENT_ID}" exists`;
      const message = `binding names agent ${JSON.stringify(agentId)}, which is not configured (${configured}); routing would fall back to the default agent ${JSON.stringify(fallback)}.${hint}`;
      out.push({ severity: "error", segments: ["bindings", index, "agentId"], message });
    }
    const match = isPlainObject(binding.match) ? binding.match : undefined;
    const peer = match && isPlainObject(match.peer) ? match.peer : undefined;
    if (
      peer &&
      Object.hasOwn(peer, "kind") &&
      !(PEER_KINDS as readonly unknown[]).includes(peer.kind)
    ) {
      const suggestion =
        typeof peer.kind === "string" ? closestMatch(peer.kind, PEER_KINDS) : undefined;
      const hint = suggestion ? ` — did you mean ${JSON.stringify(suggestion)}?` : "";
      const message = `peer kind must be one of ${PEER_KINDS.map((kind) => JSON.stringify(kind)).join(", ")} (got ${JSON.stringify(peer.kind)})${hint}`;
      out.push({
        severity: "error",
        segments: ["bindings", index, "match", "peer", "kind"],
        message,
      });
    }
  });
  return out;
}

function defaultAgentOf(slots: AgentSlot[]): string {
  return (slots.find((slot) => slot.entry.default === true) ?? slots[0]).id;
}

function allowsEveryone(allowFrom: unknown): boolean {
  return Array.isArray(allowFrom) && allowFrom.some((entry) => String(entry).trim() === "*");
}

function checkOpenDms(config: Record<string, unknown>, out: RuleIssue[]): void {
  if (!isPlainObject(config.channels)) return;
  for (const [channel, settings] of Object.entries(config.channels)) {
    if (!isPlainObject(settings)) continue;
    const base: PathSegment[] = ["channels", channel];
    if (settings.dmPolicy === "open" && !allowsEveryone(settings.allowFrom)) {
      const message = `dmPolicy "open" requires "*" in ${formatConfigPath([...base, "allowFrom"])}; add "*" to allow anyone, or use "allowlist"`;
      out.push({ severity: "error", segments: [...base, "dmPolicy"], message });
    }
    if (!isPlainObject(settings.accounts)) continue;
    for (const [account, accountSettings] of Object.entries(settings.accounts)) {
      if (!isPlainObject(accountSettings)) continue;
      const ownPolicy = Object.hasOwn(accountSettings, "dmPolicy");
      const ownAllow = Object.hasOwn(accountSettings, "allowFrom");
      if (!ownPolicy && !ownAllow) continue;
      const policy = ownPolicy ? accountSettings.dmPolicy : settings.dmPolicy;
      const allowFrom = ownAllow ? accountSettings.allowFrom : settings.allowFrom;
      if (policy !== "open" || allowsEveryone(allowFrom)) continue;
      const accountPath: PathSegment[] = [...base, "accounts", account];
      const allowPath = ownAllow ? [...accountPath, "allowFrom"] : [...base, "allowFrom"];
      const message = `dmPolicy "open" requires "*" in ${formatConfigPath(allowPath)}; add "*" to allow anyone, or use "allowlist"`;
      out.push({
        severity: "error",
        segments: ownPolicy ? [...accountPath, "dmPolicy"] : [...accountPath, "allowFrom"],
        message,
      });
    }
  }
}

/** One warning per sandboxed agent whose sandbox cannot be set up (its sandboxed tools would refuse). */
function checkSandboxModes(
  config: Record<string, unknown>,
  paths: StatePaths,
  out: RuleIssue[],
): void {
  const cfg = resolveConfig({ config: config as OpenClawConfig, paths });
  for (const agent of listSandboxedAgents(cfg)) {
    const spec = resolveSandboxSpec({
      cfg,
      agentId: agent.agentId,
      sessionKey: agent.mainSessionKey,
    });
    if (spec.ok) continue;
    const parsed = agent.source ? parseConfigPath(agent.source) : undefined;
    const segments = parsed?.ok ? parsed.segments : ["agents"];
    const message = `agent ${JSON.stringify(agent.agentId)} is sandboxed but its sandbox cannot be set up (its sandboxed tools will refuse): ${spec.error}`;
    out.push({ severity: "warning", segments, message });
  }
}

/** Runs every isolation rule over a config value (any shape; odd parts are skipped, not thrown on). */
export function checkIsolationRules(config: unknown, paths: StatePaths): RuleIssue[] {
  const out: RuleIssue[] = [];
  if (!isPlainObject(config)) return out;
  const agents = isPlainObject(config.agents) ? config.agents : {};
  if (Object.hasOwn(agents, "list") && Object.hasOwn(agents, "entries")) {
    const message =
      "agents.list and agents.entries are both set; use one (agents.entries wins and agents.list is ignored)";
    out.push({ severity: "error", segments: ["agents", "entries"], message });
  }
  const slots = checkIds(agentSlots(agents), out);
  checkDefaults(slots, out);
  checkSharedDirs({ config, paths, slots, out });
  out.push(...checkBindings(config, slots));
  checkOpenDms(config, out);
  checkSandboxModes(config, paths, out);
  return out;
}
