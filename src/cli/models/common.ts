// Shared by `pincer models status` and `models list`: each agent's chain with, per model, whether
// it resolves, which credential it would use (its id, never the secret) and what is skipped.
import type { ResolvedAgent, ResolvedConfig } from "../../config/resolve.js";
import {
  type CredentialCandidate,
  checkModelAgainstPolicy,
  envVarsForProvider,
  formatModelRef,
  resolveAgentModelChain,
  resolveAgentModelPolicy,
  resolveCredentials,
  resolveModel,
  type SkippedCredential,
} from "../../runtime/models/index.js";

/** One model of an agent's chain as `models status` shows it. */
export interface ModelStatusRow {
  role: "primary" | "fallback";
  ref: string;
  alias?: string;
  /** Error resolving the model (unknown model/provider, bad custom provider); absent when fine. */
  modelError?: string;
  api?: string;
  /** The credential the first attempt would use, or undefined when none is usable. */
  credential?: { id: string; kind: string; source: string; needsRefresh?: boolean };
  /** Further usable credentials (ids) tried on rotation. */
  alternatives: string[];
  skipped: SkippedCredential[];
  policy?: { reason: string; onMismatch: "fail" | "warn" };
  storeError?: string;
}

/** An agent's chain with per-model status. */
export interface AgentModelStatus {
  agentId: string;
  isDefault: boolean;
  agentDir: string;
  params: Record<string, unknown>;
  models: ModelStatusRow[];
  problems: Array<{ path: string; message: string }>;
}

/** Inputs of {@link agentModelStatus}. */
export interface AgentModelStatusInput {
  cfg: ResolvedConfig;
  agent: ResolvedAgent;
  env: Record<string, string | undefined>;
  now: number;
}

function publicCredential(candidate: CredentialCandidate): ModelStatusRow["credential"] {
  return {
    id: candidate.id,
    kind: candidate.kind,
    source: candidate.source,
    ...(candidate.needsRefresh ? { needsRefresh: true } : {}),
  };
}

/** Resolves one agent's models and credentials for display (no secret leaves this function). */
export function agentModelStatus(input: AgentModelStatusInput): AgentModelStatus {
  const { agent, env, now } = input;
  const chain = resolveAgentModelChain({ cfg: input.cfg, agentId: agent.id });
  const policy = resolveAgentModelPolicy(input.cfg, agent.id)?.policy;
  const cfg = input.cfg.config;
  const models = chain.links.map((link): ModelStatusRow => {
    const resolved = resolveModel({ cfg, ref: link.ref, env });
    const creds = resolveCredentials({
      agentDir: agent.agentDir,
      provider: link.ref.provider,
      cfg,
      env,
      now,
    });
    const check = checkModelAgainstPolicy(link.ref, policy);
    const [first, ...rest] = creds.candidates;
    return {
      role: link.role,
      ref: formatModelRef(link.ref),
      ...(link.alias ? { alias: link.alias } : {}),
      ...(resolved.ok ? { api: resolved.model.api } : { modelError: resolved.error }),
      ...(first ? { credential: publicCredential(first) } : {}),
      alternatives: rest.map((candidate) => candidate.id),
      skipped: creds.skipped,
      ...(check.ok ? {} : { policy: { reason: check.reason, onMismatch: check.onMismatch } }),
      ...(creds.storeError ? { storeError: creds.storeError } : {}),
    };
  });
  return {
    agentId: agent.id,
    isDefault: agent.isDefault,
    agentDir: agent.agentDir,
    params: chain.params,
    models,
    problems: chain.problems.map((problem) => ({
      path: problem.path.map(String).join("."),
      message: problem.message,
    })),
  };
}

/** How to give an agent a credential for `provider` (env var names and the CLI command). */
export function missingCredentialHint(agentId: string, provider: string): string {
  const vars = envVarsForProvider(provider);
  const env = vars.length ? `set ${vars.join(" or ")}, or ` : "";
  return `${env}run: pincer models auth add --agent ${agentId} --provider ${provider}`;
}
