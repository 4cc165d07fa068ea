// The one place that decides an agent's effective `sandbox.mode` and what it means for a session: in
// a sandboxed session exec/process and the file tools run in (or on the mount of) the sandbox, the
// session tools stay, and anything else is refused (fail closed). The same resolution feeds
// `pincer sandbox explain`, the gateway's start notice and `pincer agents list`.
import { formatConfigPath } from "../../config/config-path.js";
import { defaultsValuePath, type ResolvedConfig } from "../../config/resolve.js";
import { normalizeAgentId } from "../../routing/ids.js";
import {
  buildAgentMainSessionKey,
  resolveAgentIdFromSessionKey,
  toAgentStoreSessionKey,
} from "../../routing/index.js";
import type { SandboxSession } from "../sandbox/session.js";
import { locateAgentEntry } from "./config.js";
import { type AnyAgentTool, ToolError } from "./types.js";

/** OpenClaw's sandbox modes: never, every session but the agent's main one, every session. */
export type SandboxMode = "off" | "non-main" | "all";

/** An agent's effective sandbox mode and the config key it comes from. */
export interface AgentSandboxMode {
  agentId: string;
  mode: SandboxMode;
  /** Config path of the deciding `mode` key (`agents.list[2].sandbox.mode`); absent for the default off. */
  source?: string;
  /** The agent's main session key (`agent:<id>:<mainKey>`), the one "non-main" leaves alone. */
  mainSessionKey: string;
}

/** {@link AgentSandboxMode} for one session: `sandboxed` says whether its host tools are refused. */
export interface SessionSandbox extends AgentSandboxMode {
  sandboxed: boolean;
}

/** Tools that never touch the host's filesystem or processes: the only ones a sandboxed session keeps. */
const HOST_FREE_TOOLS: ReadonlySet<string> = new Set([
  "session_status",
  "sessions_list",
  "sessions_history",
  "sessions_send",
  "sessions_spawn",
]);

function modeOf(sandbox: unknown): unknown {
  return sandbox && typeof sandbox === "object" ? (sandbox as { mode?: unknown }).mode : undefined;
}

/** A configured value as a mode: anything set but not "off" or "non-main" counts as "all" (fail closed). */
function asMode(raw: unknown): SandboxMode {
  if (typeof raw === "string") {
    const mode = raw.trim().toLowerCase();
    if (mode === "off" || mode === "non-main") return mode;
  }
  return "all";
}

/**
 * The effective `sandbox.mode` of `agentId`: its own entry's over `agents.defaults` (the legacy
 * top-level `agent` block folded there by the resolver), else "off". The resolver tolerates any
 * config shape, so this runs on unvalidated input too.
 */
export function resolveAgentSandboxMode(cfg: ResolvedConfig, agentId: string): AgentSandboxMode {
  const id = normalizeAgentId(agentId);
  const located = locateAgentEntry(cfg, id);
  const mainKey = cfg.config.session?.mainKey;
  const mainSessionKey = buildAgentMainSessionKey({ agentId: id, mainKey });
  const defaultsPath = formatConfigPath(defaultsValuePath(cfg, ["sandbox", "mode"]));
  const candidates: Array<[unknown, string]> = [
    [modeOf(located.entry?.sandbox), `${located.path}.sandbox.mode`],
    [modeOf(cfg.defaults.sandbox), defaultsPath],
  ];
  for (const [raw, source] of candidates) {
    if (raw !== undefined && raw !== null)
      return { agentId: id, mode: asMode(raw), source, mainSessionKey };
  }
  return { agentId: id, mode: "off", mainSessionKey };
}

/** Inputs of {@link resolveSessionSandbox}. */
export interface ResolveSessionSandboxParams {
  cfg: ResolvedConfig;
  agentId: string;
  /** The session the tools run for; missing counts as a non-main session (fail closed). */
  sessionKey?: string;
}

/** Whether `sessionKey` of `agentId` is sandboxed: "all" always, "non-main" unless it is the main session. */
export function resolveSessionSandbox(params: ResolveSessionSandboxParams): SessionSandbox {
  const agent = resolveAgentSandboxMode(params.cfg, params.agentId);
  const mainKey = params.cfg.config.session?.mainKey;
  const raw = params.sessionKey?.trim() ?? "";
  const isMain =
    raw !== "" &&
    (toAgentStoreSessionKey({ agentId: agent.agentId, requestKey: raw, mainKey }) ===
      agent.mainSessionKey ||
      (params.cfg.config.session?.scope === "global" && raw.toLowerCase() === "global"));
  const sandboxed = agent.mode === "all" || (agent.mode === "non-main" && !isMain);
  return { ...agent, sandboxed };
}

/** Every agent whose effective mode is not "off", in roster order (one warning each). */
export function listSandboxedAgents(cfg: ResolvedConfig): AgentSandboxMode[] {
  return cfg.agents
    .map((agent) => resolveAgentSandboxMode(cfg, agent.id))
    .filter((agent) => agent.mode !== "off");
}

/** The tools that run inside the sandbox (exec, process) or on its mounted workspace (file tools). */
const SANDBOXED_TOOLS: ReadonlySet<string> = new Set([
  "exec",
  "process",
  "read",
  "write",
  "edit",
  "apply_patch",
]);
const FILE_TOOLS: ReadonlySet<string> = new Set(["read", "write", "edit", "apply_patch"]);

/** The line gateway start logs for a sandboxed agent. */
export function sandboxNotice(agent: AgentSandboxMode, backend: string): string {
  const where =
    agent.mode === "non-main"
      ? `in every session except its main session ${agent.mainSessionKey}`
      : "in every session";
  return `${agent.source ?? "sandbox.mode"} is ${JSON.stringify(agent.mode)}: agent ${JSON.stringify(agent.agentId)}'s tools run in a ${backend} sandbox ${where} (pincer sandbox explain --agent ${agent.agentId})`;
}

/** The error a tool that cannot run sandboxed returns in a sandboxed session. */
export function sandboxRefusal(sandbox: AgentSandboxMode, toolName: string): string {
  const scope = sandbox.mode === "non-main" ? " (this is not the agent's main session)" : "";
  return `${sandbox.source ?? "sandbox.mode"} is ${JSON.stringify(sandbox.mode)}${scope}: ${toolName} cannot run inside the sandbox, so it is refused. Nothing was run.`;
}

/** True for a tool a sandboxed session may keep (it never reaches the host). */
export function isHostFreeTool(name: string): boolean {
  return HOST_FREE_TOOLS.has(name);
}

/** The target a session tool would hand work to, as `{ agentId, sessionKey }` (undefined: none). */
function handoffTarget(
  toolName: string,
  args: unknown,
  requester: string,
): { agentId: string; sessionKey?: string } | undefined {
  const fields = args && typeof args === "object" ? (args as Record<string, unknown>) : {};
  if (toolName === "sessions_send" && typeof fields.sessionKey === "string") {
    const sessionKey = fields.sessionKey.trim();
    return { agentId: resolveAgentIdFromSessionKey(sessionKey, requester), sessionKey };
  }
  if (toolName === "sessions_spawn") {
    // A sub-agent session is never its agent's main session.
    const agentId = typeof fields.agentId === "string" ? fields.agentId : requester;
    return { agentId: normalizeAgentId(agentId) };
  }
  return undefined;
}

/** A session tool that refuses to hand work to a session whose host tools would run. */
function guardHandoff(
  tool: AnyAgentTool,
  sandbox: SessionSandbox,
  cfg: ResolvedConfig,
): AnyAgentTool {
  return {
    ...tool,
    async execute(toolCallId, args, signal, onUpdate) {
      const target = handoffTarget(tool.name, args, sandbox.agentId);
      if (target) {
        const there = resolveSessionSandbox({ cfg, ...target });
        if (!there.sandboxed) {
          const where = target.sessionKey ?? `a sub-agent of ${JSON.stringify(target.agentId)}`;
          throw new ToolError(
            `${sandbox.source ?? "sandbox.mode"} is ${JSON.stringify(sandbox.mode)}: this sandboxed session cannot hand work to ${where}, whose tools run on the host; ${tool.name} refused.`,
          );
        }
      }
      return tool.execute(toolCallId, args, signal, onUpdate);
    },
  };
}

/** A tool whose every call first fails with `message` (listed, so the model learns why). */
function refused(tool: AnyAgentTool, message: string): AnyAgentTool {
  return {
    ...tool,
    description: `Unavailable in this session: ${message}`,
    execute: async () => {
      throw new ToolError(message);
    },
  };
}

/** A file tool that makes sure the sandbox is up (and its workspace seeded) before touching it. */
function afterEnsure(tool: AnyAgentTool, session: SandboxSession): AnyAgentTool {
  return {
    ...tool,
    async execute(toolCallId, args, signal, onUpdate) {
      const ready = await session.ensure();
      if (!ready.ok)
        throw new ToolError(
          `The sandbox is unavailable: ${ready.error} Nothing was done (a sandboxed session never falls back to the host).`,
        );
      return tool.execute(toolCallId, args, signal, onUpdate);
    },
  };
}

/** Inputs of {@link applySandbox}. */
export interface ApplySandboxParams {
  tools: AnyAgentTool[];
  sandbox: SessionSandbox;
  cfg: ResolvedConfig;
  /** The session's sandbox (required when `sandbox.sandboxed`; without it sandboxed tools are refused). */
  session?: SandboxSession;
}

/**
 * For a sandboxed session: exec/process (built against the sandbox) stay, the file tools first ensure
 * the sandbox, the session tools stay (handing work only to sandboxed sessions), and every other tool
 * is refused. A spec that cannot be resolved (a bad bind) refuses the sandboxed tools with its error.
 */
export function applySandbox(params: ApplySandboxParams): AnyAgentTool[] {
  const { tools, sandbox, cfg, session } = params;
  if (!sandbox.sandboxed) return tools;
  return tools.map((tool) => {
    if (isHostFreeTool(tool.name)) {
      return tool.name === "sessions_send" || tool.name === "sessions_spawn"
        ? guardHandoff(tool, sandbox, cfg)
        : tool;
    }
    if (!SANDBOXED_TOOLS.has(tool.name) || !session)
      return refused(tool, sandboxRefusal(sandbox, tool.name));
    if (!session.spec.ok)
      return refused(tool, `The sandbox cannot be set up: ${session.spec.error} Nothing was run.`);
    return FILE_TOOLS.has(tool.name) ? afterEnsure(tool, session) : tool;
  });
}
