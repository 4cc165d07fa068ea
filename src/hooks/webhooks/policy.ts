// Which agent and session a webhook turn runs in, by OpenClaw's hook policy: `agentId` names the
// agent (unknown ids fall back to the default agent); `hooks.allowedAgentIds` restricts the agent a
// hook may reach, the default one included (omitted or `*`: any, `[]`: none); a caller's own
// `sessionKey` needs `hooks.allowRequestSessionKey: true`; explicit keys (caller or mapping) must
// start with one of `hooks.allowedSessionKeyPrefixes` when set; otherwise `hooks.defaultSessionKey`
// or a fresh `hook:<uuid>`. A key naming another agent (`agent:<id>:…`) is refused.
import { randomUUID } from "node:crypto";
import type { HooksConfig } from "../../protocol/config/index.js";
import {
  normalizeAgentId,
  parseAgentSessionKey,
  toAgentStoreSessionKey,
} from "../../routing/index.js";
import type { AgentAction } from "./actions.js";

/** The roster facts the policy needs. */
export interface HookRoster {
  agentIds: readonly string[];
  defaultAgentId: string;
  mainKey?: string;
}

/** Where the turn runs, or why not (answered 400). */
export type HookTarget =
  | { ok: true; agentId: string; sessionKey: string; requestKey: string }
  | { ok: false; error: string };

function agentAllowed(hooks: HooksConfig, agentId: string): boolean {
  const allowed = hooks.allowedAgentIds;
  if (allowed === undefined || allowed.includes("*")) return true;
  return allowed.map((id) => normalizeAgentId(id)).includes(agentId);
}

function prefixProblem(hooks: HooksConfig, key: string, label: string): string | undefined {
  const prefixes = hooks.allowedSessionKeyPrefixes;
  if (!prefixes || prefixes.length === 0) return undefined;
  if (prefixes.some((prefix) => key.startsWith(prefix))) return undefined;
  return `${label} "${key}" does not start with one of hooks.allowedSessionKeyPrefixes (${prefixes.join(", ")})`;
}

/** Resolves the agent and the store session key of an agent action. */
export function resolveHookTarget(params: {
  hooks: HooksConfig;
  roster: HookRoster;
  action: AgentAction;
  newId?: () => string;
}): HookTarget {
  const { hooks, roster, action } = params;
  const asked = action.agentId ? normalizeAgentId(action.agentId) : undefined;
  const agentId = asked && roster.agentIds.includes(asked) ? asked : roster.defaultAgentId;
  if (!agentAllowed(hooks, agentId)) {
    return { ok: false, error: `agent "${agentId}" is not allowed by hooks.allowedAgentIds` };
  }
  let requestKey: string;
  if (action.sessionKey) {
    if (action.sessionKeySource === "request" && hooks.allowRequestSessionKey !== true) {
      return {
        ok: false,
        error:
          "sessionKey is not accepted from requests: set hooks.allowRequestSessionKey: true to let callers choose it",
      };
    }
    const problem = prefixProblem(hooks, action.sessionKey, "sessionKey");
    if (problem) return { ok: false, error: problem };
    requestKey = action.sessionKey;
  } else if (hooks.defaultSessionKey?.trim()) {
    requestKey = hooks.defaultSessionKey.trim();
    const problem = prefixProblem(hooks, requestKey, "hooks.defaultSessionKey");
    if (problem) return { ok: false, error: problem };
  } else {
    requestKey = `hook:${(params.newId ?? randomUUID)()}`;
  }
  const keyAgent = parseAgentSessionKey(requestKey)?.agentId;
  if (keyAgent !== undefined && normalizeAgentId(keyAgent) !== agentId) {
    return {
      ok: false,
      error: `sessionKey "${requestKey}" belongs to agent "${keyAgent}", not "${agentId}"`,
    };
  }
  const sessionKey = toAgentStoreSessionKey({
    agentId,
    requestKey,
    ...(roster.mainKey ? { mainKey: roster.mainKey } : {}),
  });
  return { ok: true, agentId, sessionKey, requestKey };
}
