// A session's model override (`/model`, `sessions.patch {model}`): which refs an agent's session may
// choose (a known model the agent's model policy allows; when `models` catalogs are configured, one
// of them or of the agent's chain), and the chain a run uses with the override as its primary (the
// agent's fallbacks kept behind it).
import type { ResolvedConfig } from "../../config/resolve.js";
import type { SessionEntry } from "../../sessions/index.js";
import { defaultsOf, findAgentSlot } from "./config-view.js";
import { lookupModel } from "./model-lookup.js";
import { checkModelAgainstPolicy, resolveAgentModelPolicy } from "./policy.js";
import {
  buildModelAliases,
  formatModelRef,
  type ModelChain,
  type ModelRef,
  parseModelRef,
  resolveAgentModelChain,
  resolveModelParams,
} from "./refs.js";

/** Where an agent and its config are: what a choice is checked against. */
export interface ModelChoiceScope {
  cfg: ResolvedConfig;
  agentId: string;
  env: Record<string, string | undefined>;
}

/** A checked choice: the ref (and the alias it was named by), or why it is refused. */
export type ModelChoice =
  | { ok: true; ref: ModelRef; alias?: string }
  | { ok: false; error: string };

/** One model a session may choose, with its alias if it has one. */
export interface AllowedModel {
  ref: string;
  alias?: string;
}

function catalogKeys(settings: { models?: unknown } | undefined): string[] {
  const models = settings?.models;
  if (!models || Array.isArray(models) || typeof models !== "object") return [];
  return Object.keys(models);
}

/** The refs a session may choose by name: the agent's chain, then its `models` catalogs. */
export function listAllowedModels(scope: Omit<ModelChoiceScope, "env">): {
  models: AllowedModel[];
  /** No catalog is configured: any known model the policy allows may be chosen too. */
  open: boolean;
} {
  const aliases = buildModelAliases(scope.cfg, scope.agentId);
  const byRef = new Map<string, string | undefined>();
  for (const [alias, ref] of aliases) {
    const parsed = parseModelRef(ref);
    if (parsed.ok) byRef.set(formatModelRef(parsed.ref), alias);
  }
  const chain = resolveAgentModelChain({ cfg: scope.cfg, agentId: scope.agentId });
  const catalog = [
    ...catalogKeys(defaultsOf(scope.cfg).settings),
    ...catalogKeys(findAgentSlot(scope.cfg, scope.agentId).entry),
  ];
  const refs = [
    ...chain.links.map((link) => formatModelRef(link.ref)),
    ...catalog.flatMap((raw) => {
      const parsed = parseModelRef(raw);
      return parsed.ok ? [formatModelRef(parsed.ref)] : [];
    }),
  ];
  const policy = resolveAgentModelPolicy(scope.cfg, scope.agentId)?.policy;
  const models = [...new Set(refs)]
    .filter((ref) => {
      const parsed = parseModelRef(ref);
      return parsed.ok && checkModelAgainstPolicy(parsed.ref, policy).ok;
    })
    .map((ref) => {
      const alias = byRef.get(ref);
      return alias ? { ref, alias } : { ref };
    });
  return { models, open: catalog.length === 0 };
}

/** Checks a typed model (`provider/model` or an alias): known, allowed by the policy and the catalog. */
export function checkModelChoice(scope: ModelChoiceScope, raw: string): ModelChoice {
  const aliases = buildModelAliases(scope.cfg, scope.agentId);
  const parsed = parseModelRef(raw, { aliases });
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const looked = lookupModel({ cfg: scope.cfg.config, ref: parsed.ref, env: scope.env });
  if (!looked.ok) return { ok: false, error: looked.error };
  const policy = resolveAgentModelPolicy(scope.cfg, scope.agentId)?.policy;
  const check = checkModelAgainstPolicy(parsed.ref, policy);
  if (!check.ok) return { ok: false, error: check.reason };
  const allowed = listAllowedModels(scope);
  const key = formatModelRef(parsed.ref);
  if (!allowed.open && !allowed.models.some((model) => model.ref === key)) {
    return {
      ok: false,
      error: `model ${key} is not one of this agent's models (${allowed.models.map((m) => m.ref).join(", ")})`,
    };
  }
  return { ok: true, ref: parsed.ref, ...(parsed.alias ? { alias: parsed.alias } : {}) };
}

/** The session's override as typed: `providerOverride/modelOverride`, or `modelOverride` alone
 *  (a ref or an alias); undefined when the session sets none. */
export function sessionModelOverrideText(
  entry: Pick<SessionEntry, "modelOverride" | "providerOverride"> | undefined,
): string | undefined {
  const model = typeof entry?.modelOverride === "string" ? entry.modelOverride.trim() : "";
  if (!model) return undefined;
  const provider = typeof entry?.providerOverride === "string" ? entry.providerOverride.trim() : "";
  return provider && !model.includes("/") ? `${provider}/${model}` : model;
}

/** The chain a session's run uses: the agent's, or with the session's override as primary. An
 *  override the agent may not use (any more) fails the run, naming it, instead of being ignored. */
export function resolveSessionModelChain(
  scope: ModelChoiceScope,
  entry: Pick<SessionEntry, "modelOverride" | "providerOverride"> | undefined,
): { ok: true; chain: ModelChain } | { ok: false; error: string } {
  const chain = resolveAgentModelChain({ cfg: scope.cfg, agentId: scope.agentId });
  const raw = sessionModelOverrideText(entry);
  if (raw === undefined) return { ok: true, chain };
  const choice = checkModelChoice(scope, raw);
  if (!choice.ok) {
    return {
      ok: false,
      error: `this session's model override "${raw}" cannot be used: ${choice.error} (clear it with /model default)`,
    };
  }
  return { ok: true, chain: chainWithPrimary(chain, scope, choice.ref) };
}

/** The agent's chain with `ref` as its primary (its params), the agent's fallbacks behind it. */
export function chainWithPrimary(
  chain: ModelChain,
  scope: Omit<ModelChoiceScope, "env">,
  ref: ModelRef,
): ModelChain {
  const key = formatModelRef(ref);
  const primaryLink = {
    role: "primary" as const,
    raw: key,
    ref,
    path: ["session", "modelOverride"],
  };
  return {
    ...chain,
    primary: ref,
    fallbacks: chain.fallbacks.filter((fallback) => formatModelRef(fallback) !== key),
    params: resolveModelParams({ cfg: scope.cfg, agentId: chain.agentId, ref }),
    links: [primaryLink, ...chain.links.filter((link) => link.role !== "primary")],
  };
}
