// Public surface of the built-in tools: the toolset builder, the tool policy, the background-job registry,
// the session-tools host contract and schema normalization. Other areas import from here only.

export { type AgentAccessDecision, checkAgentToAgent, checkSpawnTarget } from "./agent-access.js";
export {
  type ApplyChunksParams,
  applyChunks,
  createApplyPatchTool,
  type PatchedFile,
} from "./apply-patch.js";
export { type PatchChunk, type PatchOperation, parsePatch } from "./apply-patch-parse.js";
export {
  DEFAULT_TOOL_PROFILE,
  isPincerTool,
  normalizeToolName,
  PINCER_TOOL_NAMES,
  type PincerToolName,
  TOOL_GROUPS,
  TOOL_PROFILES,
  type ToolProfileName,
} from "./catalog.js";
export {
  type ApplyPatchSetting,
  type EffectiveToolSettings,
  type LocatedAgentEntry,
  locateAgentEntry,
  resolveToolSettings,
} from "./config.js";
export { createEditTool, type EditDetails } from "./edit.js";
export { createExecTool, type ExecDetails, type ExecToolContext } from "./exec.js";
export { type InvokeToolParams, invokeTool, type ToolCallOutcome } from "./invoke.js";
export { OutputBuffer } from "./output-buffer.js";
export { displayPath, resolveToolPath, type ToolPathContext } from "./paths.js";
export { type ResolveToolPolicyParams, resolveToolPolicy, type ToolPolicy } from "./policy.js";
export {
  type ProcessJob,
  ProcessRegistry,
  type ProcessRegistryOptions,
} from "./process-registry.js";
export {
  createProcessTool,
  type JobSummary,
  type ProcessToolContext,
  summarizeJob,
} from "./process-tool.js";
export { createReadTool, type ReadDetails, type ReadToolContext } from "./read.js";
export {
  type AgentSandboxMode,
  applySandbox,
  isHostFreeTool,
  listSandboxedAgents,
  type ResolveSessionSandboxParams,
  resolveAgentSandboxMode,
  resolveSessionSandbox,
  type SandboxMode,
  type SessionSandbox,
  sandboxNotice,
  sandboxRefusal,
} from "./sandbox-policy.js";
export { needsGeminiSchema, normalizeToolSchema } from "./schema-normalize.js";
export { createSessionsSendTool, createSessionsSpawnTool } from "./session-send-spawn.js";
export {
  createSessionStatusTool,
  createSessionsHistoryTool,
  createSessionsListTool,
  type SessionToolContext,
} from "./session-tools.js";
export type {
  MaybePromise,
  SessionHistoryMessage,
  SessionStatus,
  SessionSummary,
  SessionsHistoryParams,
  SessionsListParams,
  SessionsSendParams,
  SessionsSendResult,
  SessionsSpawnParams,
  SessionsSpawnResult,
  SessionToolsHost,
  SessionUsage,
} from "./session-tools-contract.js";
export { type ShellExit, ShellProcess, type StartShellParams } from "./shell-process.js";
export { type BuildToolsetParams, buildToolset } from "./toolset.js";
export {
  type AnyAgentTool,
  DEFAULT_TOOL_LIMITS,
  jsonResult,
  ToolAbortedError,
  type ToolContent,
  ToolError,
  type ToolLimits,
  textResult,
} from "./types.js";
export { toToolError, type WrapToolOptions, wrapTool } from "./wrap.js";
export { createWriteTool, type WriteDetails } from "./write.js";
