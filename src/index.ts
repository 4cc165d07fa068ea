// The package root: Pincer's building blocks, importable without starting anything.
// Config in, routes out — the same files, ids and session keys as OpenClaw.

export { loadBootstrapFiles } from "./agents/bootstrap.js";
export { createBootstrapHookRegistry } from "./agents/bootstrap-hooks.js";
export { buildContextReport } from "./agents/context-report.js";
export { formatContextReport } from "./agents/context-report-format.js";
export {
  listAgentEntries,
  listAgents,
  type ResolvedAgent,
  resolveAgent,
  resolveDefaultAgentId,
} from "./agents/roster.js";
export {
  discoverSkills,
  formatSkillsForPrompt,
  takeSkillsSnapshot,
} from "./agents/skills/index.js";
export { buildSystemPrompt } from "./agents/system-prompt.js";
export { seedWorkspace } from "./agents/workspace.js";
export {
  type ConfigEdit,
  type ConfigIssue,
  editConfigFile,
  formatConfigIssues,
  getConfigValue,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  lookupAgent,
  type ResolvedConfig,
  resolveConfig,
  resolveStatePaths,
  type StatePaths,
  validateConfig,
} from "./config/index.js";
// The TypeBox schema itself is the subpath export "pincer/config-schema": TypeBox is slow to load.
export type { AgentEntry, OpenClawConfig } from "./protocol/config/index.js";
export {
  buildAgentMainSessionKey,
  buildAgentSessionKey,
  DEFAULT_ACCOUNT_ID,
  DEFAULT_AGENT_ID,
  DEFAULT_MAIN_KEY,
  explainAgentRoute,
  type MatchedBy,
  normalizeAccountId,
  normalizeAgentId,
  parseAgentSessionKey,
  type ResolveAgentRouteInput,
  type ResolvedAgentRoute,
  resolveAgentRoute,
} from "./routing/index.js";
export {
  acquireStateDirLock,
  openSessionStore,
  readTranscript,
  SessionStore,
  type SessionStoreApi,
  SessionStoreRegistry,
  type TranscriptApi,
} from "./sessions/index.js";
