// Helpers several method groups use: resolving an agent and a session key the way the CLI does.
import { listAgentIds, type ResolvedConfig } from "../../config/index.js";
import { DetailCodes, ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import {
  buildAgentMainSessionKey,
  normalizeAgentId,
  parseAgentSessionKey,
  toAgentStoreSessionKey,
} from "../../routing/index.js";
import { fail, type MethodResult } from "./method.js";

/** Agent ids of the resolved roster (the implicit `main` when none is configured). */
export function knownAgentIds(cfg: ResolvedConfig): string[] {
  return listAgentIds(cfg);
}

/** The agent and store session key of a request, or an error for an unknown agent. */
export function resolveTarget(
  cfg: ResolvedConfig,
  request: { agentId?: string; sessionKey?: string },
): { agentId: string; sessionKey: string } | { error: MethodResult } {
  const keyAgent = request.sessionKey
    ? parseAgentSessionKey(request.sessionKey)?.agentId
    : undefined;
  const agentId = normalizeAgentId(request.agentId ?? keyAgent ?? cfg.defaultAgentId);
  if (!knownAgentIds(cfg).includes(agentId)) {
    return {
      error: fail(
        gatewayError(ErrorCodes.INVALID_REQUEST, `unknown agent id "${agentId}"`, {
          details: { code: DetailCodes.UNKNOWN_AGENT_ID, agentId },
        }),
      ),
    };
  }
  const mainKey = cfg.config.session?.mainKey;
  const sessionKey = request.sessionKey
    ? toAgentStoreSessionKey({ agentId, requestKey: request.sessionKey, mainKey })
    : buildAgentMainSessionKey({ agentId, mainKey });
  return { agentId, sessionKey };
}

/** An INVALID_REQUEST result. */
export function invalid(message: string, details?: Record<string, unknown>): MethodResult {
  return fail(gatewayError(ErrorCodes.INVALID_REQUEST, message, details ? { details } : {}));
}
