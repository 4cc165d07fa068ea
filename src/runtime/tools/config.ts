// How the tools read the config: `tools.*` from the resolved config, each agent's entry (`tools`,
// `subagents`, `sandbox`) from the resolved roster with its config path, and the merged settings.
import { formatConfigPath } from "../../config/config-path.js";
import { findAgent, type ResolvedConfig } from "../../config/resolve.js";
import type { AgentEntry } from "../../protocol/config/index.js";
import { normalizeAgentId } from "../../routing/index.js";

/** `tools.exec.applyPatch`: `{ enabled, workspaceOnly }` (a bare `true` is accepted too). */
export type ApplyPatchSetting = boolean | { enabled?: boolean; workspaceOnly?: boolean };

/** An agent's entry and its config path (`agents.list[2]`, `agents.entries.family`; see formatConfigPath). */
export interface LocatedAgentEntry {
  entry?: AgentEntry;
  path: string;
}

/** The resolved roster's entry of `agentId` and where it is (or would be) written in the file. */
export function locateAgentEntry(resolved: ResolvedConfig, agentId: string): LocatedAgentEntry {
  const agent = findAgent(resolved, agentId);
  if (agent?.source.length) return { entry: agent.entry, path: formatConfigPath(agent.source) };
  const id = normalizeAgentId(agentId);
  const where = resolved.rosterKey === "entries" ? ["agents", "entries", id] : ["agents", id];
  return { path: formatConfigPath(where) };
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

function applyPatchFlags(setting: unknown): { enabled?: boolean; workspaceOnly?: boolean } {
  if (typeof setting === "boolean") return { enabled: setting };
  if (!setting || typeof setting !== "object") return {};
  const { enabled, workspaceOnly } = setting as { enabled?: unknown; workspaceOnly?: unknown };
  return {
    ...(typeof enabled === "boolean" ? { enabled } : {}),
    ...(typeof workspaceOnly === "boolean" ? { workspaceOnly } : {}),
  };
}

/** Merges `tools.exec`/`tools.fs` with the agent's overrides. */
export function resolveToolSettings(cfg: ResolvedConfig, agentId: string): EffectiveToolSettings {
  const own = findAgent(cfg, agentId)?.entry.tools;
  // `agents.defaults.tools` sits between the agent's own settings and the top-level `tools`.
  const shared = cfg.defaults.tools;
  const global = cfg.config.tools;
  const patchOwn = applyPatchFlags(own?.exec?.applyPatch);
  const patchShared = applyPatchFlags(shared?.exec?.applyPatch);
  const patchGlobal = applyPatchFlags(global?.exec?.applyPatch);
  const timeoutSec = own?.exec?.timeoutSec ?? shared?.exec?.timeoutSec ?? global?.exec?.timeoutSec;
  const pathPrepend =
    own?.exec?.pathPrepend ?? shared?.exec?.pathPrepend ?? global?.exec?.pathPrepend;
  const applyPatchEnabled = patchOwn.enabled ?? patchShared.enabled ?? patchGlobal.enabled;
  const applyPatchWorkspaceOnly =
    patchOwn.workspaceOnly ?? patchShared.workspaceOnly ?? patchGlobal.workspaceOnly;
  const fsWorkspaceOnly =
    own?.fs?.workspaceOnly ?? shared?.fs?.workspaceOnly ?? global?.fs?.workspaceOnly;
  return {
    applyPatchEnabled: applyPatchEnabled === true,
    applyPatchWorkspaceOnly: applyPatchWorkspaceOnly !== false,
    fsWorkspaceOnly: fsWorkspaceOnly === true,
    ...(timeoutSec !== undefined ? { timeoutSec } : {}),
    ...(pathPrepend ? { pathPrepend } : {}),
  };
}
