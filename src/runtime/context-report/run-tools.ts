// The tool list and model the context report (`pincer context`, `/context`) shows: built with the
// run's own functions (the model chain's primary, `buildToolset`), so the count and schemas are the
// ones a request carries.

import type { ToolSchemaView } from "../../agents/context-report.js";
import type { ResolvedAgent, ResolvedConfig } from "../../config/resolve.js";
import { formatModelRef, resolveAgentModelChain, resolveModel } from "../models/index.js";
import { buildToolset, ProcessRegistry, type SessionToolsHost } from "../tools/index.js";

const NOT_RUNNING = "not available: the context report only describes the tools";

/** A session-tools host for listing tools: describing a tool never calls it. */
const LISTING_HOST: SessionToolsHost = {
  status: () => Promise.reject(new Error(NOT_RUNNING)),
  list: () => Promise.reject(new Error(NOT_RUNNING)),
  history: () => Promise.reject(new Error(NOT_RUNNING)),
  send: () => Promise.reject(new Error(NOT_RUNNING)),
  spawn: () => Promise.reject(new Error(NOT_RUNNING)),
};

/** The model a run would try first (its label as the run writes it) and the tools it would send. */
export function runToolsFor(params: {
  cfg: ResolvedConfig;
  agent: ResolvedAgent;
  sessionKey: string;
  env: Record<string, string | undefined>;
}): { model: string; tools: ToolSchemaView[] } {
  const { cfg, agent } = params;
  const chain = resolveAgentModelChain({ cfg, agentId: agent.id });
  const ref = chain.primary;
  const resolved = ref ? resolveModel({ cfg: cfg.config, ref, env: params.env }) : undefined;
  const model = resolved?.ok ? resolved.model : undefined;
  const jobs = new ProcessRegistry();
  const tools = buildToolset({
    cfg,
    agentId: agent.id,
    sessionKey: params.sessionKey,
    workspaceDir: agent.workspace,
    host: LISTING_HOST,
    jobs,
    signal: new AbortController().signal,
    ...(model ? { provider: model.provider, modelId: model.id, api: model.api } : {}),
  });
  return {
    model: ref ? formatModelRef(ref) : "unset",
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    })),
  };
}
