// `sessions_send` (a message into another session, agent-to-agent only when `tools.agentToAgent` allows
// both agents) and `sessions_spawn` (a sub-agent run in minimal prompt mode, done by the host).
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { Type } from "typebox";
import { normalizeAgentId, resolveAgentIdFromSessionKey } from "../../routing/index.js";
import { checkSpawnTarget } from "./agent-access.js";
import { assertAgentAccess, type SessionToolContext } from "./session-tools.js";
import { jsonResult, ToolError } from "./types.js";

const SendParams = Type.Object({
  sessionKey: Type.String({ description: "Target session key, e.g. agent:work:main." }),
  message: Type.String({ description: "The message to deliver as a new turn there." }),
  timeoutSeconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 600,
      description: "Wait this long for the reply (0 = don't wait; default 30).",
    }),
  ),
});

/** Creates `sessions_send`. */
export function createSessionsSendTool(ctx: SessionToolContext): AgentTool<typeof SendParams> {
  return {
    name: "sessions_send",
    label: "Send to session",
    description:
      "Send a message to another session (it runs as a new turn there) and optionally wait for the reply. " +
      "Sessions of other agents need agent-to-agent access (tools.agentToAgent).",
    parameters: SendParams,
    async execute(_id, args, signal) {
      const sessionKey = args.sessionKey.trim();
      if (sessionKey === "") throw new ToolError("sessionKey must not be empty.");
      if (args.message.trim() === "") throw new ToolError("message must not be empty.");
      const agentId = resolveAgentIdFromSessionKey(sessionKey, ctx.agentId);
      assertAgentAccess(ctx, { agentId, tool: "sessions_send" });
      const result = await ctx.host.send({
        fromAgentId: normalizeAgentId(ctx.agentId),
        agentId,
        sessionKey,
        message: args.message,
        timeoutSeconds: args.timeoutSeconds ?? 30,
        ...(signal ? { signal } : {}),
      });
      if (result.status === "error") {
        throw new ToolError(
          `sessions_send to ${sessionKey} failed: ${result.error ?? "unknown error"}`,
        );
      }
      return jsonResult({ sessionKey, agentId, ...result });
    },
  };
}

const SpawnParams = Type.Object({
  task: Type.String({ description: "What the sub-agent should do, self-contained." }),
  label: Type.Optional(Type.String({ description: "Short label for the sub-agent session." })),
  agentId: Type.Optional(
    Type.String({
      description: "Run as this agent (default: this agent; others need subagents.allowAgents).",
    }),
  ),
  model: Type.Optional(Type.String({ description: "Model override, provider/model." })),
  timeoutSeconds: Type.Optional(
    Type.Integer({ minimum: 1, description: "Run timeout in seconds." }),
  ),
});

/** Creates `sessions_spawn`. */
export function createSessionsSpawnTool(ctx: SessionToolContext): AgentTool<typeof SpawnParams> {
  return {
    name: "sessions_spawn",
    label: "Spawn sub-agent",
    description:
      "Start a sub-agent run in a new session for a self-contained task; returns its session key (and its " +
      "reply when the host waits for it).",
    parameters: SpawnParams,
    async execute(_id, args, signal) {
      if (args.task.trim() === "") throw new ToolError("task must not be empty.");
      const requester = normalizeAgentId(ctx.agentId);
      const target = args.agentId ? normalizeAgentId(args.agentId) : requester;
      const decision = checkSpawnTarget({ cfg: ctx.cfg, requester, target });
      if (!decision.allowed) throw new ToolError(`sessions_spawn refused: ${decision.reason}`);
      const result = await ctx.host.spawn({
        requesterAgentId: requester,
        agentId: target,
        task: args.task,
        promptMode: "minimal",
        ...(args.label ? { label: args.label } : {}),
        ...(args.model ? { model: args.model } : {}),
        ...(args.timeoutSeconds ? { timeoutSeconds: args.timeoutSeconds } : {}),
        ...(signal ? { signal } : {}),
      });
      if (result.status === "error") {
        throw new ToolError(`sessions_spawn failed: ${result.error ?? "unknown error"}`);
      }
      return jsonResult({ agentId: target, ...result });
    },
  };
}
