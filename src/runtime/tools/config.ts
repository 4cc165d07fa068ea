// The parts of openclaw.json the tools read (`tools.*`, `agents.*.tools`, `agents.*.subagents`,
// `agents.*.sandbox.mode`, `session.mainKey`), as a structural type `OpenClawConfig` satisfies, plus
// the per-agent lookup and merged settings.
import { formatConfigPath } from "../../config/config-path.js";
import type { ToolProfile } from "../../protocol/config/tools.js";
import { normalizeAgentId } from "../../routing/index.js";

/** A profile plus allow/deny lists, as written at any level of the config. */
export interface ToolPolicyLike {
  profile?: ToolProfile;
  allow?: string[];
  alsoAllow?: string[];
  deny?: string[];
}

/** `tools.exec.applyPatch`: `true` or `{ enabled, workspaceOnly }`. */
export type ApplyPatchSetting = boolean | { enabled?: boolean; workspaceOnly?: boolean };

/** Tool settings shared by `tools` and `agents.list[].tools`. */
export interface ToolSettingsLike extends ToolPolicyLike {
  byProvider?: Record<string, ToolPolicyLike | undefined>;
  exec?: { timeoutSec?: number; pathPrepend?: string[]; applyPatch?: ApplyPatchSetting };
  fs?: { workspaceOnly?: boolean };
}

/** `sandbox` of an agent entry or `agents.defaults`: only `mode` is read (see sandbox-policy.ts). */
export interface SandboxSettingLike {
  mode?: string;
}

/** The parts of an agent entry the tools read. */
export interface AgentToolsEntryLike {
  id?: string;
  tools?: ToolSettingsLike;
  subagents?: { allowAgents?: string[] };
  sandbox?: SandboxSettingLike;
}

/** The parts of the config the tools read; `OpenClawConfig` satisfies it. */
export interface ToolsConfigLike {
  tools?: ToolSettingsLike & { agentToAgent?: { enabled?: boolean; allow?: string[] } };
  agents?: {
    defaults?: {
      userTimezone?: string;
      subagents?: { allowAgents?: string[] };
      sandbox?: SandboxSettingLike;
    };
    list?: AgentToolsEntryLike[];
    entries?: Record<string, AgentToolsEntryLike | undefined>;
  };
  /** Legacy top-level `agent` block (same as `agents.defaults`). */
  agent?: { sandbox?: SandboxSettingLike };
  session?: { mainKey?: string; scope?: string };
}

/** An agent's entry and its config path (`agents.list[2]`, `agents.entries.family`; see formatConfigPath). */
export interface LocatedAgentEntry {
  entry?: AgentToolsEntryLike;
  path: string;
}

/** Finds the entry of `agentId` in `agents.entries` (keyed by id) or `agents.list`. */
export function findAgentEntry(cfg: ToolsConfigLike, agentId: string): LocatedAgentEntry {
  const id = normalizeAgentId(agentId);
  const entries = cfg.agents?.entries;
  if (entries && typeof entries === "object") {
    for (const [key, entry] of Object.entries(entries)) {
      if (normalizeAgentId(entry?.id ?? key) === id)
        return { entry, path: formatConfigPath(["agents", "entries", key]) };
    }
    return { path: formatConfigPath(["agents", "entries", id]) };
  }
  const list = Array.isArray(cfg.agents?.list) ? cfg.agents.list : [];
  const index = list.findIndex((entry) => normalizeAgentId(entry?.id) === id);
  return index >= 0
    ? { entry: list[index], path: formatConfigPath(["agents", "list", index]) }
    : { path: formatConfigPath(["agents", id]) };
}

/** Effective exec/fs settings of an agent: its own `tools.exec` / `tools.fs` over the global ones. */
export interface EffectiveToolSettings {
  applyPatchEnabled: boolean;
  /** apply_patch stays inside the workspace (OpenClaw's default) unless `workspaceOnly: false`. */
  applyPatchWorkspaceOnly: boolean;
  fsWorkspaceOnly: boolean;
  timeoutSec?: number;
  pathPrepend?: string[];
}

function applyPatchFlags(setting: ApplyPatchSetting | undefined) {
  if (setting === undefined) return {};
  if (typeof setting === "boolean") return { enabled: setting };
  return { enabled: setting.enabled, workspaceOnly: setting.workspaceOnly };
}

/** Merges `tools.exec`/`tools.fs` with the agent's overrides. */
export function resolveToolSettings(cfg: ToolsConfigLike, agentId: string): EffectiveToolSettings {
  const own = findAgentEntry(cfg, agentId).entry?.tools;
  const global = cfg.tools;
  const patchOwn = applyPatchFlags(own?.exec?.applyPatch);
  const patchGlobal = applyPatchFlags(global?.exec?.applyPatch);
  const timeoutSec = own?.exec?.timeoutSec ?? global?.exec?.timeoutSec;
  const pathPrepend = own?.exec?.pathPrepend ?? global?.exec?.pathPrepend;
  return {
    applyPatchEnabled: (patchOwn.enabled ?? patchGlobal.enabled) === true,
    applyPatchWorkspaceOnly: (patchOwn.workspaceOnly ?? patchGlobal.workspaceOnly) !== false,
    fsWorkspaceOnly: (own?.fs?.workspaceOnly ?? global?.fs?.workspaceOnly) === true,
    ...(timeoutSec !== undefined ? { timeoutSec } : {}),
    ...(pathPrepend ? { pathPrepend } : {}),
  };
}
