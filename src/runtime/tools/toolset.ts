// buildToolset: the tools one agent's model sees for one run — the built-ins that pass the agent's tool
// policy (apply_patch only when enabled; in a sandboxed session also the sandbox tool policy), built
// against the session's sandbox when it is sandboxed (sandbox-policy.ts), each wrapped for
// cancellation and error conversion.

import type { ResolvedConfig } from "../../config/resolve.js";
import type { Logger } from "../../lib/logger.js";
import { normalizeAgentId } from "../../routing/index.js";
import { SANDBOX_WORKDIR } from "../sandbox/backend.js";
import { resolveEffectiveSandbox } from "../sandbox/config.js";
import { defaultSandboxBackends, type SandboxBackendRegistry } from "../sandbox/registry.js";
import { createSandboxSession } from "../sandbox/session.js";
import { createApplyPatchTool } from "./apply-patch.js";
import { PINCER_TOOL_NAMES, type PincerToolName } from "./catalog.js";
import { resolveToolSettings } from "./config.js";
import { createEditTool } from "./edit.js";
import { createExecTool } from "./exec.js";
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
  /** Sandbox backends by id (default: the ones this build ships). */
  sandboxBackends?: SandboxBackendRegistry;
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
  const workspaceOnly = boxed ? true : (params.workspaceOnly ?? settings.fsWorkspaceOnly);
  const fs = boxed?.fs ?? { workspaceDir: params.workspaceDir, workspaceOnly };
  const session: SessionToolContext = {
    cfg,
    agentId: normalizeAgentId(agentId),
    host: params.host,
    now: params.now ?? Date.now,
  };
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
        ...fs,
        jobs,
        scope,
        limits,
        allowBackground: allowed.has("process"),
        ...(settings.timeoutSec !== undefined ? { timeoutSec: settings.timeoutSec } : {}),
        ...(settings.pathPrepend ? { pathPrepend: settings.pathPrepend } : {}),
        ...(params.logger ? { logger: params.logger } : {}),
        ...(params.env ? { env: params.env } : {}),
        ...(boxed ? { sandboxSession: boxed.session } : {}),
      }),
    process: () => createProcessTool({ jobs, scope, limits }),
    session_status: () => createSessionStatusTool(session),
    sessions_list: () => createSessionsListTool(session),
    sessions_history: () => createSessionsHistoryTool(session),
    sessions_send: () => createSessionsSendTool(session),
    sessions_spawn: () => createSessionsSpawnTool(session),
  };
  const wrap = { signal: params.signal, api: params.api, logger: params.logger };
  const tools = PINCER_TOOL_NAMES.filter((name) => allowed.has(name))
    .map((name) => factories[name]())
    .filter((tool): tool is AnyAgentTool => tool !== undefined);
  return applySandbox({ tools, sandbox, cfg, ...(boxed ? { session: boxed.session } : {}) }).map(
    (tool) => wrapTool(tool, wrap),
  );
}
