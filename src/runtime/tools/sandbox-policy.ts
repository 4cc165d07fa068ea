// The one place that decides an agent's effective `sandbox.mode` and what it means for a session.
// Pincer has no sandbox runtime yet, so a session whose effective mode is not "off" fails closed:
// every tool that reaches the host is refused with an error naming the setting. The same resolution
// feeds `pincer config validate`, the gateway's start warning and `pincer agents list`.
import { formatConfigPath } from "../../config/config-path.js";
import { defaultsValuePath, type ResolvedConfig } from "../../config/resolve.js";
import { normalizeAgentId } from "../../routing/ids.js";
import {
  buildAgentMainSessionKey,
  resolveAgentIdFromSessionKey,
  toAgentStoreSessionKey,
} from "../../routing/index.js";
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

/** The names of the host tools a sandboxed session loses, for messages. */
const HOST_TOOL_LIST = "exec, process, read, write, edit, apply_patch";

/** The warning `config validate`, gateway start and `agents list` give for a sandboxed agent. */
export function sandboxWarning(agent: AgentSandboxMode): string {
  const where =
    agent.mode === "non-main"
      ? `in every session except its main session ${agent.mainSessionKey}`
      : "in every session";
  return `${agent.source ?? "sandbox.mode"} is ${JSON.stringify(agent.mode)}: sandboxing is not available yet in Pincer, so agent ${JSON.stringify(agent.agentId)} has no host tools (${HOST_TOOL_LIST} are refused) ${where}; set it to "off" to run tools on the host without isolation`;
}

/** The error a refused tool call returns. */
export function sandboxRefusal(sandbox: AgentSandboxMode, toolName: string): string {
  const scope = sandbox.mode === "non-main" ? " (this is not the agent's main session)" : "";
  return `${sandbox.source ?? "sandbox.mode"} is ${JSON.stringify(sandbox.mode)}${scope}: sandboxed tools are not available yet in Pincer; ${toolName} refused. Nothing was run.`;
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

/**
 * For a sandboxed session, replaces every host-reaching tool's `execute` with a refusal (a
 * `ToolError`, so the loop reports `isError`); the tool stays listed so the model learns why.
 * Unknown tools count as host-reaching: only {@link isHostFreeTool} names run, and `sessions_send` /
 * `sessions_spawn` only toward sessions that are sandboxed too (no escape through another session).
 */
export function applySandbox(
  tools: AnyAgentTool[],
  sandbox: SessionSandbox,
  cfg: ResolvedConfig,
): AnyAgentTool[] {
  if (!sandbox.sandboxed) return tools;
  return tools.map((tool) => {
    if (isHostFreeTool(tool.name)) {
      return tool.name === "sessions_send" || tool.name === "sessions_spawn"
        ? guardHandoff(tool, sandbox, cfg)
        : tool;
    }
    const message = sandboxRefusal(sandbox, tool.name);
    return {
      ...tool,
      description: `Unavailable in this session: ${message}`,
      execute: async () => {
        throw new ToolError(message);
      },
    };
  });
}
