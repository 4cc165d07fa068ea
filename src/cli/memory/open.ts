// What every `pincer memory` command starts from: the config, the chosen agent, its effective
// memorySearch settings and its index (persisted under `<stateDir>/memory/<agentId>.json`).
import {
  embeddingIndexParams,
  MemoryIndex,
  type MemorySearchSettings,
  memoryStorePath,
  resolveMemorySearchSettings,
} from "../../memory/index.js";
import { selectAgent } from "../agent-select.js";
import { type CliContext, CliError } from "../command-context.js";
import { loadForCli } from "../load.js";

/** The opened memory of one agent. */
export interface OpenedMemory {
  agentId: string;
  workspaceDir: string;
  home: string;
  settings: MemorySearchSettings;
  storePath: string;
  index: MemoryIndex;
}

/** Opens the agent's memory; `requireEnabled` refuses an agent with `memorySearch.enabled: false`. */
export function openMemory(
  ctx: CliContext,
  params: { agent: string | undefined; readOnly?: boolean; requireEnabled?: boolean },
): OpenedMemory {
  const loaded = loadForCli(ctx, { requireValid: true });
  const { agentId, agent } = selectAgent(loaded, params.agent);
  const settings = resolveMemorySearchSettings(loaded.resolved, agentId, loaded.env);
  if (params.requireEnabled && !settings.enabled) {
    throw new CliError(
      `memory search is off for agent ${agentId} (memorySearch.enabled: false); set it to true to use it`,
    );
  }
  const storePath = memoryStorePath(loaded.paths.stateDir, agentId);
  const index = new MemoryIndex({
    agentId,
    workspaceDir: agent.workspace,
    extraPaths: settings.extraPaths,
    chunking: settings.chunking,
    storePath,
    home: loaded.paths.home,
    ...(params.readOnly ? { readOnly: true } : {}),
    ...embeddingIndexParams(settings),
  });
  return {
    agentId,
    workspaceDir: agent.workspace,
    home: loaded.paths.home,
    settings,
    storePath,
    index,
  };
}
