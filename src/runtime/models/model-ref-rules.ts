// Config rule: every model an agent's chain names resolves (known provider, known model), else an
// error at its config path with a did-you-mean; `models.mode: "replace"` with no model configured is
// an error instead of a silent fall back to the built-in default. Checked on the catalogue's ids
// (model-lookup.ts), never pi-ai itself: gateway start runs it before listening. It runs where
// models are used (`config validate`, `status`, gateway start, reloads), not in every config load.
import type { ConfigIssue, LoadedConfig, StatePaths } from "../../config/index.js";
import { formatConfigPath, resolveConfig, validateConfig } from "../../config/index.js";
import type { ResolvedConfig } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { listAgentSlots } from "./config-view.js";
import { isReplaceMode, lookupModel } from "./model-lookup.js";
import { formatModelRef, type ModelChain, resolveAgentModelChain } from "./refs.js";

function configuredRefs(cfg: OpenClawConfig): string[] {
  return Object.entries(cfg.models?.providers ?? {}).flatMap(([provider, entry]) =>
    (entry.models ?? []).map((model) => `${provider}/${model.id}`),
  );
}

/** The model-ref errors of a config: unknown providers/models (with close matches), replace mode with none. */
export function checkModelRefs(
  resolved: ResolvedConfig,
  env: Record<string, string | undefined> = {},
): ConfigIssue[] {
  const cfg = resolved.config;
  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  const add = (path: string, message: string) => {
    if (seen.has(`${path}\n${message}`)) return;
    seen.add(`${path}\n${message}`);
    issues.push({ severity: "error", path, message });
  };
  for (const slot of listAgentSlots(resolved)) {
    const chain = resolveAgentModelChain({ cfg: resolved, agentId: slot.id });
    for (const link of chain.links) {
      if (link.path.length === 0 && isReplaceMode(cfg)) {
        const refs = configuredRefs(cfg);
        const hint = refs.length
          ? `set it to one of: ${refs.join(", ")}`
          : "and models.providers lists no model";
        add(
          "agents.defaults.model",
          `models.mode is "replace" but no model is configured (the built-in default ${formatModelRef(link.ref)} is not used); ${hint}`,
        );
        continue;
      }
      const resolved = lookupModel({ cfg, ref: link.ref, env });
      if (resolved.ok) continue;
      const path = link.path.length ? formatConfigPath(link.path) : "agents.defaults.model";
      add(path, resolved.error);
    }
  }
  return issues;
}

/** Why a run cannot use its chain's primary (unknown provider/model, replace mode with none), if so. */
export function chainPrimaryError(input: {
  cfg: OpenClawConfig;
  chain: ModelChain;
  env: Record<string, string | undefined>;
}): string | undefined {
  const { cfg, chain } = input;
  const link = chain.links.find((item) => item.role === "primary");
  if (!link) return undefined;
  if (link.path.length === 0 && isReplaceMode(cfg)) {
    return `models.mode is "replace" but no model is configured for agent ${chain.agentId} (set agents.defaults.model)`;
  }
  const resolved = lookupModel({ cfg, ref: link.ref, env: input.env });
  return resolved.ok ? undefined : resolved.error;
}

/** `loaded` with the model-ref errors added (and `valid` recomputed). */
export function withModelRefIssues<T extends OpenClawConfig>(
  loaded: LoadedConfig<T>,
  env: Record<string, string | undefined> = {},
): LoadedConfig<T> {
  if (!loaded.exists && Object.keys(loaded.config).length === 0) return loaded;
  const extra = checkModelRefs(loaded.resolved, env).map((issue) => {
    const at = loaded.locate(issue.path);
    return at ? { ...issue, file: at.file, line: at.line, column: at.column } : issue;
  });
  if (extra.length === 0) return loaded;
  return { ...loaded, issues: [...loaded.issues, ...extra], valid: false };
}

/** Inputs of {@link validateConfigWithModelRefs}. */
export interface ValidateWithModelRefsParams {
  value: unknown;
  paths: StatePaths;
  env: Record<string, string | undefined>;
}

/** validateConfig (schema, isolation rules), then the model refs: the check of every config writer
 *  (CLI edits, config.set/patch), so nothing writes a config the gateway would refuse to load. */
export function validateConfigWithModelRefs(
  params: ValidateWithModelRefsParams,
): ReturnType<typeof validateConfig> {
  const base = validateConfig(params.value, { paths: params.paths });
  if (!base.valid) return base;
  const config = params.value as OpenClawConfig;
  const extra = checkModelRefs(resolveConfig({ config, paths: params.paths }), params.env);
  return extra.length > 0 ? { valid: false, issues: [...base.issues, ...extra] } : base;
}
