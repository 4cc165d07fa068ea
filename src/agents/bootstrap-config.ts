// The config knobs of workspace seeding and bootstrap injection, resolved per agent:
// the agent's entry wins over `agents.defaults`, which wins over the legacy top-level `agent`.
import { normalizeAgentId } from "../routing/ids.js";
import { type AgentEntryLike, listAgentEntries, type RosterConfig } from "./roster.js";

/** Per-file injection cap when nothing is configured (`bootstrapMaxChars`). */
export const DEFAULT_BOOTSTRAP_MAX_CHARS = 20_000;
/** Total injection cap when nothing is configured (`bootstrapTotalMaxChars`), as the seeds say. */
export const DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS = 150_000;

/** The bootstrap keys accepted in an agent entry, `agents.defaults` and the legacy `agent`. */
export interface BootstrapKnobs {
  skipBootstrap?: boolean;
  bootstrapMaxChars?: number;
  bootstrapTotalMaxChars?: number;
}

/** The parts of the config these resolvers read; `OpenClawConfig` satisfies it. */
export interface BootstrapConfig extends RosterConfig {
  agents?: RosterConfig["agents"] & {
    defaults?: BootstrapKnobs;
    list?: Array<AgentEntryLike & BootstrapKnobs>;
    entries?: Record<string, (AgentEntryLike & BootstrapKnobs) | undefined>;
  };
  agent?: RosterConfig["agent"] & BootstrapKnobs;
}

/** Resolved injection caps for one agent. */
export interface BootstrapLimits {
  maxChars: number;
  totalMaxChars: number;
}

/** The knobs in precedence order: agent entry, `agents.defaults`, legacy `agent`. */
function knobLayers(cfg: BootstrapConfig, agentId: string): BootstrapKnobs[] {
  const id = normalizeAgentId(agentId);
  // listAgentEntries spreads each entry, so the bootstrap keys are still there; only its type narrows.
  const entries = listAgentEntries(cfg) as Array<AgentEntryLike & BootstrapKnobs & { id: string }>;
  const entry = entries.find((candidate) => normalizeAgentId(candidate.id) === id);
  return [entry ?? {}, cfg.agents?.defaults ?? {}, cfg.agent ?? {}];
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** Whether seeding bootstrap files is off for this agent (`skipBootstrap`, first layer that sets it). */
export function resolveSkipBootstrap(cfg: BootstrapConfig, agentId: string): boolean {
  for (const layer of knobLayers(cfg, agentId)) {
    if (typeof layer.skipBootstrap === "boolean") return layer.skipBootstrap;
  }
  return false;
}

/** Per-file and total injection caps for an agent; non-positive or non-integer values are ignored. */
export function resolveBootstrapLimits(cfg: BootstrapConfig, agentId: string): BootstrapLimits {
  const layers = knobLayers(cfg, agentId);
  const pick = (key: "bootstrapMaxChars" | "bootstrapTotalMaxChars", fallback: number): number => {
    for (const layer of layers) {
      const value = positiveInt(layer[key]);
      if (value !== undefined) return value;
    }
    return fallback;
  };
  return {
    maxChars: pick("bootstrapMaxChars", DEFAULT_BOOTSTRAP_MAX_CHARS),
    totalMaxChars: pick("bootstrapTotalMaxChars", DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS),
  };
}
