// Which sessions may read memory. Like MEMORY.md, memory is private: the agent's main session and
// direct chats read it (OpenClaw's default memory scope: deny, allow direct); a group, a channel
// or any other session (cron, hooks) is refused; a sub-agent never gets the tools (OpenClaw's
// sub-agent tool deny list names memory_search and memory_get).
import {
  buildAgentMainSessionKey,
  normalizeAgentId,
  parseAgentSessionKey,
  toAgentStoreSessionKey,
} from "../routing/index.js";

/** `private`: the tools work; `shared`: they refuse; `subagent`: they are not offered. */
export type MemoryAccess = "private" | "shared" | "subagent";

/** Inputs of {@link memoryAccessFor}. */
export interface MemoryAccessParams {
  agentId: string;
  /** The run's session; missing counts as shared (fail closed). */
  sessionKey: string | undefined;
  /** `session.mainKey` of the config. */
  mainKey?: string;
  /** `session.scope`: with "global" the key `global` is the one shared main session. */
  scope?: string;
}

/** The memory access of one session (see the file comment). */
export function memoryAccessFor(params: MemoryAccessParams): MemoryAccess {
  const raw = params.sessionKey?.trim() ?? "";
  if (raw === "") return "shared";
  if (params.scope === "global" && raw.toLowerCase() === "global") return "private";
  const agentId = normalizeAgentId(params.agentId);
  const mainKey = params.mainKey;
  const storeKey = toAgentStoreSessionKey({ agentId, requestKey: raw, mainKey });
  if (storeKey === buildAgentMainSessionKey({ agentId, mainKey })) return "private";
  const parts = parseAgentSessionKey(storeKey)?.rest.split(":") ?? [];
  if (parts.includes("subagent")) return "subagent";
  const shared = parts.some((part) => part === "group" || part === "channel");
  return !shared && parts.includes("direct") ? "private" : "shared";
}

/** What a refused call tells the model (and the user reading the transcript). */
export function memoryRefusal(sessionKey: string | undefined): string {
  const where = sessionKey?.trim() ? `session ${sessionKey.trim()}` : "a session without a key";
  return `memory is private: the memory tools work in the agent's main session and direct chats only, not in ${where}`;
}
