// Tool policy: which tools an agent's model may see. Stages are applied in OpenClaw's order (profile →
// byProvider profile → tools.allow/deny → tools.byProvider → agents.defaults.tools (and its byProvider)
// → agent allow/deny → agent byProvider); a tool must pass every stage, so a deny anywhere wins and a
// per-agent allowlist can only narrow.

import type { ResolvedConfig } from "../../config/resolve.js";
import type { ToolPolicy as ToolPolicyConfig } from "../../protocol/config/index.js";
import {
  DEFAULT_TOOL_PROFILE,
  isPincerTool,
  normalizeToolName,
  PINCER_TOOL_NAMES,
  type PincerToolName,
  TOOL_GROUPS,
  TOOL_PROFILES,
  type ToolProfileName,
} from "./catalog.js";
import { locateAgentEntry } from "./config.js";

/** The resolved policy of one agent. */
export interface ToolPolicy {
  readonly agentId: string;
  /** The profile in force (`full` when none is configured). */
  readonly profile: ToolProfileName;
  /** True when `name` passes every stage. */
  allows(name: string): boolean;
  /** One line saying whether `name` is allowed and which config entry decided it. */
  explain(name: string): string;
  /** Built-in tools that pass, in catalog order. */
  allowedTools(): PincerToolName[];
}

/** Inputs of {@link resolveToolPolicy}; provider and model select `byProvider` entries. */
export interface ResolveToolPolicyParams {
  cfg: ResolvedConfig;
  agentId: string;
  provider?: string;
  modelId?: string;
  /** The session is sandboxed: `tools.sandbox.tools` (or OpenClaw's default sandbox policy) applies too. */
  sandboxed?: boolean;
}

/** OpenClaw's default sandbox tool policy: what a sandboxed session may use when nothing is configured. */
export const DEFAULT_SANDBOX_TOOL_POLICY = Object.freeze({
  allow: [
    "exec",
    "process",
    "read",
    "write",
    "edit",
    "apply_patch",
    "image",
    "sessions_list",
    "sessions_history",
    "sessions_send",
    "sessions_spawn",
    "session_status",
  ],
  deny: ["browser", "canvas", "nodes", "cron", "discord", "gateway"],
});

interface Matcher {
  entry: string;
  test(name: string): boolean;
}

interface ListRule {
  label: string;
  matchers: Matcher[];
}

interface Stage {
  allow?: ListRule;
  deny?: ListRule;
}

function globMatcher(entry: string, pattern: string): Matcher {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const re = new RegExp(`^${source}$`);
  return { entry, test: (name) => re.test(name) };
}

function compile(entry: string): Matcher {
  const name = normalizeToolName(entry);
  if (name.startsWith("group:")) {
    const members: readonly string[] = TOOL_GROUPS[name] ?? [];
    return { entry, test: (tool) => members.includes(tool) };
  }
  if (name.includes("*")) return globMatcher(entry, name);
  return { entry, test: (tool) => tool === name };
}

function rule(label: string, entries: string[] | undefined): ListRule | undefined {
  const list = (entries ?? []).filter((entry) => typeof entry === "string" && entry.trim() !== "");
  return list.length > 0 ? { label, matchers: list.map(compile) } : undefined;
}

/** allow/deny stage of one config level; `alsoAllow` extends a non-empty allowlist. */
function listStage(policy: ToolPolicyConfig | undefined, path: string): Stage | undefined {
  if (!policy) return undefined;
  const allow = policy.allow?.length ? [...policy.allow, ...(policy.alsoAllow ?? [])] : undefined;
  const stage: Stage = {
    allow: rule(`${path}.allow`, allow),
    deny: rule(`${path}.deny`, policy.deny),
  };
  return stage.allow || stage.deny ? stage : undefined;
}

/** The profile's allowlist (none for `full`), extended by `alsoAllow`. */
function profileStage(p: { profile: ToolProfileName; label: string; alsoAllow?: string[] }): Stage {
  if (p.profile === "full") return {};
  const entries = [...TOOL_PROFILES[p.profile], ...(p.alsoAllow ?? [])];
  return { allow: rule(`${p.label} "${p.profile}"`, entries) };
}

function providerKey(
  policies: Record<string, ToolPolicyConfig | undefined> | undefined,
  params: ResolveToolPolicyParams,
) {
  if (!policies || !params.provider) return undefined;
  const lower = Object.fromEntries(Object.keys(policies).map((key) => [key.toLowerCase(), key]));
  const provider = params.provider.toLowerCase();
  const full = params.modelId ? `${provider}/${params.modelId.toLowerCase()}` : undefined;
  return (full && lower[full]) || lower[provider];
}

function isProfile(value: unknown): value is ToolProfileName {
  return value === "minimal" || value === "coding" || value === "messaging" || value === "full";
}

function buildStages(params: ResolveToolPolicyParams) {
  const global = params.cfg.config.tools;
  // `agents.defaults.tools`: every agent's own tools settings, under the agent's entry.
  const shared = params.cfg.defaults.tools;
  const { entry, path } = locateAgentEntry(params.cfg, params.agentId);
  const own = entry?.tools;
  const gKey = providerKey(global?.byProvider, params);
  const dKey = providerKey(shared?.byProvider, params);
  const aKey = providerKey(own?.byProvider, params);
  const gProvider = gKey ? global?.byProvider?.[gKey] : undefined;
  const dProvider = dKey ? shared?.byProvider?.[dKey] : undefined;
  const aProvider = aKey ? own?.byProvider?.[aKey] : undefined;
  const ownProfile = isProfile(own?.profile) ? own.profile : undefined;
  const sharedProfile = isProfile(shared?.profile) ? shared.profile : undefined;
  const globalProfile = isProfile(global?.profile) ? global.profile : undefined;
  const profile = ownProfile ?? sharedProfile ?? globalProfile ?? DEFAULT_TOOL_PROFILE;
  const profileLabel = ownProfile
    ? `${path}.tools.profile`
    : sharedProfile
      ? "agents.defaults.tools.profile"
      : globalProfile
        ? "tools.profile"
        : "default profile";
  const alsoAllow = own?.alsoAllow ?? shared?.alsoAllow ?? global?.alsoAllow;
  const stages: Array<Stage | undefined> = [
    profileStage({ profile, label: profileLabel, alsoAllow }),
  ];
  const providerProfile = aProvider?.profile ?? dProvider?.profile ?? gProvider?.profile;
  if (isProfile(providerProfile)) {
    const where = aProvider?.profile
      ? `${path}.tools.byProvider.${aKey}`
      : dProvider?.profile
        ? `agents.defaults.tools.byProvider.${dKey}`
        : `tools.byProvider.${gKey}`;
    const alsoAllow = aProvider?.alsoAllow ?? dProvider?.alsoAllow ?? gProvider?.alsoAllow;
    stages.push(profileStage({ profile: providerProfile, label: `${where}.profile`, alsoAllow }));
  }
  stages.push(
    listStage(global, "tools"),
    listStage(gProvider, `tools.byProvider.${gKey}`),
    listStage(shared, "agents.defaults.tools"),
    listStage(dProvider, `agents.defaults.tools.byProvider.${dKey}`),
    listStage(own, `${path}.tools`),
    listStage(aProvider, `${path}.tools.byProvider.${aKey}`),
  );
  if (params.sandboxed) stages.push(sandboxStage(params));
  return { profile, stages: stages.filter((stage): stage is Stage => stage !== undefined) };
}

/**
 * The sandbox stage: the agent's `tools.sandbox.tools` replaces `agents.defaults.tools.sandbox.tools`,
 * which replaces `tools.sandbox.tools`; each list missing there falls back to OpenClaw's default.
 */
function sandboxStage(params: ResolveToolPolicyParams): Stage {
  const { entry, path } = locateAgentEntry(params.cfg, params.agentId);
  const layers: Array<[ToolPolicyConfig | undefined, string]> = [
    [entry?.tools?.sandbox?.tools, `${path}.tools.sandbox.tools`],
    [params.cfg.defaults.tools?.sandbox?.tools, "agents.defaults.tools.sandbox.tools"],
    [params.cfg.config.tools?.sandbox?.tools, "tools.sandbox.tools"],
  ];
  const [policy, label] = layers.find(([layer]) => layer !== undefined) ?? [
    undefined,
    "default sandbox tool policy",
  ];
  const allow = policy?.allow?.length
    ? [...policy.allow, ...(policy.alsoAllow ?? [])]
    : [...DEFAULT_SANDBOX_TOOL_POLICY.allow, ...(policy?.alsoAllow ?? [])];
  const allowLabel = policy?.allow?.length ? `${label}.allow` : "default sandbox tool policy allow";
  const deny = policy?.deny ?? DEFAULT_SANDBOX_TOOL_POLICY.deny;
  const denyLabel = policy?.deny ? `${label}.deny` : "default sandbox tool policy deny";
  return { allow: rule(allowLabel, allow), deny: rule(denyLabel, deny) };
}

function firstMatch(list: ListRule, name: string): Matcher | undefined {
  return list.matchers.find((matcher) => matcher.test(name));
}

function deniedBy(stages: Stage[], name: string): { label: string; entry: string } | undefined {
  for (const stage of stages) {
    const hit = stage.deny && firstMatch(stage.deny, name);
    if (stage.deny && hit) return { label: stage.deny.label, entry: hit.entry };
  }
  return undefined;
}

/**
 * apply_patch passes an allowlist that allows exec (OpenClaw counts it as part of exec for allowlists),
 * unless exec itself is denied somewhere.
 */
function allowMatch(stages: Stage[], check: { list: ListRule; name: string }): Matcher | undefined {
  const { list, name } = check;
  const direct = firstMatch(list, name);
  if (direct || name !== "apply_patch" || deniedBy(stages, "exec")) return direct;
  return firstMatch(list, "exec");
}

function decide(stages: Stage[], name: string): { allowed: boolean; reason: string } {
  const denied = deniedBy(stages, name);
  if (denied) return { allowed: false, reason: `denied by ${denied.label} ("${denied.entry}")` };
  const passes: string[] = [];
  for (const stage of stages) {
    if (!stage.allow) continue;
    const hit = allowMatch(stages, { list: stage.allow, name });
    if (!hit) {
      const listed = stage.allow.matchers.map((m) => m.entry).join(", ");
      return { allowed: false, reason: `not in ${stage.allow.label} [${listed}]` };
    }
    passes.push(`${stage.allow.label} ("${hit.entry}")`);
  }
  return {
    allowed: true,
    reason:
      passes.length > 0 ? `listed in ${passes.join(", ")}` : "no allowlist or deny entry applies",
  };
}

/** Resolves the tool policy of `agentId` from `tools`, `agents.defaults.tools` and its own entry's `tools`. */
export function resolveToolPolicy(params: ResolveToolPolicyParams): ToolPolicy {
  const { profile, stages } = buildStages(params);
  const allows = (name: string) => decide(stages, normalizeToolName(name)).allowed;
  return {
    agentId: params.agentId,
    profile,
    allows,
    explain(name) {
      const normalized = normalizeToolName(name);
      const { allowed, reason } = decide(stages, normalized);
      const note = isPincerTool(normalized) ? "" : " (not a Pincer built-in tool)";
      return `${normalized}: ${allowed ? "allowed" : "blocked"}${note} — ${reason}`;
    },
    allowedTools: () => PINCER_TOOL_NAMES.filter(allows),
  };
}
