// buildToolset: the tools one agent's model sees for one run — the built-ins that pass the agent's tool
// policy (apply_patch only when enabled; in a sandboxed session also the sandbox tool policy), built
// against the session's sandbox when it is sandboxed (sandbox-policy.ts), each wrapped for
// cancellation and error conversion.

import type { ResolvedConfig } from "../../config/resolve.js";
import type { Logger } from "../../lib/logger.js";
import {
  type MemoryIndexes,
  memoryAccessFor,
  resolveMemorySearchSettings,
} from "../../memory/index.js";
import { normalizeAgentId } from "../../routing/index.js";
import {
  type ExecApprovalsHost,
  effectiveElevatedLevel,
  resolveExecHost,
  resolveExecPolicy,
} from "../approvals/index.js";
import { SANDBOX_WORKDIR } from "../sandbox/backend.js";
import { resolveEffectiveSandbox } from "../sandbox/config.js";
import { defaultSandboxBackends, type SandboxBackendRegistry } from "../sandbox/registry.js";
import { createSandboxSession } from "../sandbox/session.js";
import { createApplyPatchTool } from "./apply-patch.js";
import { PINCER_TOOL_NAMES, type PincerToolName } from "./catalog.js";
import { resolveToolSettings } from "./config.js";
import { type CronToolHost, createCronTool } from "./cron-tool.js";
import { createEditTool } from "./edit.js";
import { createExecTool } from "./exec.js";
import {
  createMemoryGetTool,
  createMemorySearchTool,
  type MemoryToolContext,
} from "./memory-tools.js";
import { createNodesTool, type NodesToolHost, nodesToolEnabled } from "./nodes-tool.js";
import { resolveToolPolicy } from "./policy.js";
import type { ProcessRegistry } from "./process-registry.js";
import { createProcessTool } from "./process-tool.js";
import { createReadTool } from "./read.js";
import { applySandbox, resolveSessionSandbox } from "./sandbox-policy.js";
import { createSessionsSendTool, createSessionsSpawnTool } from "./session-send-spawn.js";
import {
  createSessionStatusTool,
  createSessionsHistoryTool,
  createSessionsListTool,
  type SessionToolContext,
} from "./session-tools.js";
import type { SessionToolsHost } from "./session-tools-contract.js";
import { type AnyAgentTool, DEFAULT_TOOL_LIMITS, type ToolLimits } from "./types.js";
import { wrapTool } from "./wrap.js";
import { createWriteTool } from "./write.js";

/** Inputs of {@link buildToolset}. */
export interface BuildToolsetParams {
  cfg: ResolvedConfig;
  agentId: string;
  /**
   * The session the run is for: decides `sandbox.mode: "non-main"`. Required so no caller forgets it;
   * `undefined` counts as a non-main session (fail closed).
   */
  sessionKey: string | undefined;
  /** The agent workspace: cwd of every tool; relative paths resolve inside it. */
  workspaceDir: string;
  host: SessionToolsHost;
  /** The gateway's cron access for this agent: the `cron` tool exists only with it. */
  cron?: CronToolHost;
  /** The gateway's node hosts: the `nodes` tool exists only with it (and when a policy names it). */
  nodes?: NodesToolHost;
  /** Background jobs registry (owned by the gateway). */
  jobs: ProcessRegistry;
  /** Restrict file tools to the workspace; defaults to `tools.fs.workspaceOnly` (agent over global). */
  workspaceOnly?: boolean;
  /** The run's signal: aborting it ends every running tool call with an "aborted" error. */
  signal: AbortSignal;
  /** Provider and model of the run: select `tools.byProvider` entries. */
  provider?: string;
  modelId?: string;
  /** Provider api (e.g. "google-generative-ai"): tool schemas are normalized for it. */
  api?: string;
  /** Scope of background jobs (default: the agent id; pass the session key to isolate sessions). */
  jobScope?: string;
  limits?: Partial<ToolLimits>;
  now?: () => number;
  logger?: Logger;
  /** Environment of commands `exec` runs (process env + config `env` vars); default process.env. */
  env?: Record<string, string | undefined>;
  /** Memory indexes kept warm between runs (the runtime's); absent, each run loads the stored one. */
  memoryIndexes?: MemoryIndexes;
  /** State dir: the memory index is persisted under `<stateDir>/memory/`; absent, in memory only. */
  stateDir?: string;
  /** Plugin tools: after the built-ins, under the same policy, sandbox and wrapping. */
  extraTools?: readonly AnyAgentTool[];
  /** The gateway's exec approvals (pending requests, approvals file); absent: none can be asked. */
  approvals?: ExecApprovalsHost;
  /** The session's stored `elevatedLevel` (`/elevated`); honoured only when elevated is enabled. */
  elevatedLevel?: unknown;
  /** Sandbox backends by id (default: the ones this build ships). */
  sandboxBackends?: SandboxBackendRegistry;
}

/** The memory tools' context, or undefined when the agent has them off or the run is a sub-agent's. */
function memoryContext(
  params: BuildToolsetParams,
  maxChars: number,
): MemoryToolContext | undefined {
  const { cfg, sessionKey } = params;
  const agentId = normalizeAgentId(params.agentId);
  const settings = resolveMemorySearchSettings(cfg, agentId, params.env ?? process.env);
  const session = cfg.config.session;
  const access = memoryAccessFor({
    agentId,
    sessionKey,
    ...(session?.mainKey ? { mainKey: session.mainKey } : {}),
    ...(session?.scope ? { scope: session.scope } : {}),
  });
  if (!settings.enabled || access === "subagent") return undefined;
  return {
    agentId,
    workspaceDir: params.workspaceDir,
    sessionKey,
    settings,
    access,
    maxChars,
    ...(cfg.paths.home ? { home: cfg.paths.home } : {}),
    ...(params.memoryIndexes ? { indexes: params.memoryIndexes } : {}),
    ...(params.stateDir ? { stateDir: params.stateDir } : {}),
  };
}

/** The environment a backend finds its binaries with: the run's, PATH from the process when it has none. */
function backendEnv(env: Record<string, string | undefined> | undefined): NodeJS.ProcessEnv {
  const base = env ?? process.env;
  return base.PATH ? base : { ...base, PATH: process.env.PATH };
}

/** The sandbox of a sandboxed session and how its file tools see /workspace. */
function sandboxParts(params: BuildToolsetParams, sandboxed: boolean) {
  if (!sandboxed) return undefined;
  const session = createSandboxSession({
    cfg: params.cfg,
    agentId: params.agentId,
    // No key counts as a non-main session of its own (fail closed), never as the main one.
    sessionKey: params.sessionKey ?? `agent:${normalizeAgentId(params.agentId)}:unkeyed`,
    agentWorkspace: params.workspaceDir,
    registry: params.sandboxBackends ?? defaultSandboxBackends(),
    env: backendEnv(params.env),
    ...(params.logger ? { logger: params.logger } : {}),
  });
  const access = resolveEffectiveSandbox(params.cfg, params.agentId).workspaceAccess;
  const fs = {
    workspaceDir: session.spec.ok ? session.spec.value.workspaceDir : params.workspaceDir,
    workspaceOnly: true,
    sandbox: {
      mount: SANDBOX_WORKDIR,
      ...(access.value === "ro" ? { readOnlyBy: access.source } : {}),
    },
  };
  return { session, fs };
}

/**
 * Creates the tools of `agentId` allowed by its policy, in catalog order, wrapped for the run. In a
 * sandboxed session exec/process run inside the sandbox and file tools reach only its /workspace.
 */
export function buildToolset(params: BuildToolsetParams): AnyAgentTool[] {
  const { cfg, agentId, jobs } = params;
  const sandbox = resolveSessionSandbox({
    cfg,
    agentId,
    ...(params.sessionKey !== undefined ? { sessionKey: params.sessionKey } : {}),
  });
  const policy = resolveToolPolicy({
    cfg,
    agentId,
    sandboxed: sandbox.sandboxed,
    ...(params.provider ? { provider: params.provider } : {}),
    ...(params.modelId ? { modelId: params.modelId } : {}),
  });
  const allowed = new Set(policy.allowedTools());
  const settings = resolveToolSettings(cfg, agentId);
  const limits: ToolLimits = { ...DEFAULT_TOOL_LIMITS, ...params.limits };
  const scope = params.jobScope ?? normalizeAgentId(agentId);
  const boxed = sandboxParts(params, sandbox.sandboxed);
  const hostWorkspaceOnly = params.workspaceOnly ?? settings.fsWorkspaceOnly;
  // Sandboxed file tools never leave /workspace, whatever tools.fs says.
  const workspaceOnly = boxed ? true : hostWorkspaceOnly;
  const fs = boxed?.fs ?? { workspaceDir: params.workspaceDir, workspaceOnly };
  const session: SessionToolContext = {
    cfg,
    agentId: normalizeAgentId(agentId),
    host: params.host,
    now: params.now ?? Date.now,
  };
  const memory = memoryContext(params, limits.readMaxChars);
  const elevated = effectiveElevatedLevel({ cfg, agentId, sessionLevel: params.elevatedLevel });
  // Where exec runs (the sandbox, or the host when elevated); host commands pass the approvals gate,
  // which elevated "full" skips.
  const execHost = resolveExecHost({ sandboxed: sandbox.sandboxed, elevated: elevated !== "off" });
  const execPolicy =
    elevated === "full"
      ? { security: "full" as const, ask: "off" as const, safeBins: [] }
      : resolveExecPolicy(cfg, agentId);
  const factories: Record<PincerToolName, () => AnyAgentTool | undefined> = {
    read: () => createReadTool({ ...fs, limits }),
    write: () => createWriteTool(fs),
    edit: () => createEditTool(fs),
    apply_patch: () =>
      settings.applyPatchEnabled
        ? createApplyPatchTool({
            ...fs,
            workspaceOnly: workspaceOnly || settings.applyPatchWorkspaceOnly,
          })
        : undefined,
    exec: () =>
      createExecTool({
        // An elevated session's exec runs on the host, in the agent's own workspace.
        ...(execHost === "host" && boxed
          ? { workspaceDir: params.workspaceDir, workspaceOnly: hostWorkspaceOnly }
          : fs),
        jobs,
        scope,
        limits,
        allowBackground: allowed.has("process"),
        ...(settings.timeoutSec !== undefined ? { timeoutSec: settings.timeoutSec } : {}),
        ...(settings.pathPrepend ? { pathPrepend: settings.pathPrepend } : {}),
        ...(params.logger ? { logger: params.logger } : {}),
        ...(params.env ? { env: params.env } : {}),
        ...(execHost === "host"
          ? {
              approvals: {
                policy: execPolicy,
                ...(params.approvals ? { host: params.approvals } : {}),
                agentId: normalizeAgentId(agentId),
                ...(params.sessionKey !== undefined ? { sessionKey: params.sessionKey } : {}),
                elevated: sandbox.sandboxed,
              },
            }
          : boxed
            ? { sandboxSession: boxed.session }
            : {}),
      }),
    process: () => createProcessTool({ jobs, scope, limits }),
    memory_search: () => (memory ? createMemorySearchTool(memory) : undefined),
    memory_get: () => (memory ? createMemoryGetTool(memory) : undefined),
    session_status: () => createSessionStatusTool(session),
    sessions_list: () => createSessionsListTool(session),
    sessions_history: () => createSessionsHistoryTool(session),
    sessions_send: () => createSessionsSendTool(session),
    sessions_spawn: () => createSessionsSpawnTool(session),
    cron: () =>
      params.cron
        ? createCronTool({
            host: params.cron,
            agentId: session.agentId,
            sessionKey: params.sessionKey,
          })
        : undefined,
    nodes: () =>
      params.nodes && nodesToolEnabled(cfg, agentId)
        ? createNodesTool({
            host: params.nodes,
            agentId: session.agentId,
            sessionKey: params.sessionKey,
            policy: execPolicy,
            ...(params.approvals ? { approvals: params.approvals } : {}),
          })
        : undefined,
  };
  const wrap = { signal: params.signal, api: params.api, logger: params.logger };
  const tools = PINCER_TOOL_NAMES.filter((name) => allowed.has(name))
    .map((name) => factories[name]())
    .filter((tool): tool is AnyAgentTool => tool !== undefined);
  for (const tool of params.extraTools ?? []) if (policy.allows(tool.name)) tools.push(tool);
  const boxedTools = applySandbox({
    tools,
    sandbox,
    cfg,
    ...(boxed ? { session: boxed.session } : {}),
  });
  // An elevated session keeps its host exec; applySandbox maps the tools one to one, in order.
  return boxedTools
    .map((tool, i) => (tool.name === "exec" && execHost === "host" ? tools[i]! : tool))
    .map((tool) => wrapTool(tool, wrap));
}
