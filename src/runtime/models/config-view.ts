// How the models area reads the config: agents (entry, defaults, config paths) from the resolved
// roster (config/resolve.ts), providers from `models.providers`; types are the schema's.
import type { PathSegment } from "../../config/config-path.js";
import {
  defaultsValuePath,
  findAgent,
  type ResolvedAgent,
  type ResolvedConfig,
} from "../../config/resolve.js";
import type {
  AgentDefaults,
  AgentEntry,
  ModelProvider,
  OpenClawConfig,
} from "../../protocol/config/index.js";
import { normalizeAgentId } from "../../routing/ids.js";

/** The model-related keys of `agents.defaults` and of each agent entry (schema types). */
export type AgentModelSettings = Pick<AgentDefaults, "model" | "params" | "modelPolicy"> & {
  /** Catalog (alias map) in both; an entry may also give an allowlist of refs. */
  models?: AgentDefaults["models"] | AgentEntry["models"];
};

/** An agent's entry with its normalized id and where it stands in the config file. */
export interface AgentSlot {
  id: string;
  entry?: AgentEntry;
  /** Config path of the entry (`agents.list[2]`, `agents.entries.family`); empty without an entry. */
  path: PathSegment[];
}

/** The effective defaults (the legacy `agent` block already folded under `agents.defaults` by the
 *  resolver) and where a key of them is written in the file. */
export function defaultsOf(resolved: ResolvedConfig): {
  settings: AgentModelSettings;
  /** File path of `agents.defaults.<key>.<rest…>` (the legacy block's spelling when it supplied it). */
  pathOf: (key: keyof AgentModelSettings, ...rest: PathSegment[]) => PathSegment[];
} {
  return {
    settings: resolved.defaults,
    pathOf: (key, ...rest) => defaultsValuePath(resolved, [key, ...rest]),
  };
}

function slotOf(agent: ResolvedAgent): AgentSlot {
  return agent.source.length > 0
    ? { id: agent.id, entry: agent.entry, path: agent.source }
    : { id: agent.id, path: [] };
}

/** Agent slots in roster order (the resolved roster); the implicit `main` (no entry) if none. */
export function listAgentSlots(resolved: ResolvedConfig): AgentSlot[] {
  return resolved.agents.map(slotOf);
}

/** The slot of one agent; an unknown id gets an entry-less slot (defaults only). */
export function findAgentSlot(resolved: ResolvedConfig, agentId: string): AgentSlot {
  const agent = findAgent(resolved, agentId);
  return agent ? slotOf(agent) : { id: normalizeAgentId(agentId), path: [] };
}

const PROVIDER_ALIASES: Record<string, string> = {
  "z.ai": "zai",
  "z-ai": "zai",
  bedrock: "amazon-bedrock",
  "aws-bedrock": "amazon-bedrock",
};

/** Lower-cases a provider id and maps the usual spellings (`z.ai`, `bedrock`) to the canonical one. */
export function normalizeProviderId(raw: string): string {
  const id = raw.trim().toLowerCase();
  return PROVIDER_ALIASES[id] ?? id;
}

/** The `models.providers` entry for `provider` (ids compared after normalization). */
export function findProviderConfig(
  cfg: OpenClawConfig,
  provider: string,
): ModelProvider | undefined {
  const providers = cfg.models?.providers ?? {};
  const wanted = normalizeProviderId(provider);
  const key = Object.keys(providers).find((id) => normalizeProviderId(id) === wanted);
  return key === undefined ? undefined : providers[key];
}
