// Model policy (`modelPolicy: { allow?, forbid?, onMismatch }` on agents.defaults or an agent):
// which model refs an agent may use. Pure, no provider code: config validation imports it.
import { formatConfigPath, type PathSegment } from "../../config/config-path.js";
import { type ResolvedConfig, resolveRoster } from "../../config/resolve.js";
import type { ModelPolicy } from "../../protocol/config/index.js";
import { defaultsOf, findAgentSlot, listAgentSlots } from "./config-view.js";
import { formatModelRef, type ModelRef, parseModelRef, resolveAgentModelChain } from "./refs.js";

/** An agent's effective policy and where it is configured. */
export interface ResolvedModelPolicy {
  policy: ModelPolicy;
  path: PathSegment[];
}

/** Result of {@link checkModelAgainstPolicy}. */
export type PolicyCheck = { ok: true } | { ok: false; reason: string; onMismatch: "fail" | "warn" };

/** One policy problem found in the config, in the shape of a config issue. */
export interface ModelPolicyIssue {
  severity: "error" | "warning";
  /** Dot path such as `agents.list[0].model.fallbacks[1]`. */
  path: string;
  segments: PathSegment[];
  message: string;
}

/** A policy as written, keeping only well-formed parts (validation reports the rest). */
function sanitizePolicy(raw: unknown): ModelPolicy | undefined {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  const value = raw as Record<string, unknown>;
  const strings = (list: unknown) =>
    Array.isArray(list)
      ? list.filter((item): item is string => typeof item === "string")
      : undefined;
  const allow = strings(value.allow);
  const forbid = strings(value.forbid);
  return {
    ...(allow ? { allow } : {}),
    ...(forbid ? { forbid } : {}),
    onMismatch: value.onMismatch === "warn" ? "warn" : "fail",
  };
}

/** The agent's `modelPolicy`, which replaces (not merges with) `agents.defaults.modelPolicy`. */
export function resolveAgentModelPolicy(
  cfg: ResolvedConfig,
  agentId: string,
): ResolvedModelPolicy | undefined {
  const slot = findAgentSlot(cfg, agentId);
  const own = sanitizePolicy(slot.entry?.modelPolicy);
  if (own) return { policy: own, path: [...slot.path, "modelPolicy"] };
  const defaults = defaultsOf(cfg);
  const policy = sanitizePolicy(defaults.settings.modelPolicy);
  return policy ? { policy, path: defaults.pathOf("modelPolicy") } : undefined;
}

/** Glob match where `*` is any run of characters; case-insensitive. */
function globMatch(pattern: string, text: string): boolean {
  const escaped = pattern
    .toLowerCase()
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${escaped}$`).test(text.toLowerCase());
}

/** Whether `ref` matches a policy entry: `*`, `provider/*` or `provider/model` (globs allowed). */
function matchesEntry(entry: string, ref: ModelRef): boolean {
  const text = entry.trim();
  if (text === "*") return true;
  const parsed = parseModelRef(text);
  if (!parsed.ok) return false;
  return globMatch(parsed.ref.provider, ref.provider) && globMatch(parsed.ref.model, ref.model);
}

/** Checks one ref: forbid wins; a non-empty `allow` must match; `onMismatch` defaults to fail. */
export function checkModelAgainstPolicy(
  ref: ModelRef,
  policy: Partial<ModelPolicy> | undefined,
): PolicyCheck {
  if (!policy) return { ok: true };
  const onMismatch = policy.onMismatch === "warn" ? "warn" : "fail";
  const key = formatModelRef(ref);
  const forbidden = (policy.forbid ?? []).find((entry) => matchesEntry(entry, ref));
  if (forbidden !== undefined) {
    const via = forbidden.trim() === key ? "" : ` (matches "${forbidden}")`;
    return { ok: false, reason: `model ${key} is forbidden by modelPolicy${via}`, onMismatch };
  }
  const allow = policy.allow ?? [];
  if (allow.length > 0 && !allow.some((entry) => matchesEntry(entry, ref))) {
    return {
      ok: false,
      reason: `model ${key} is not in modelPolicy.allow (${allow.join(", ")})`,
      onMismatch,
    };
  }
  return { ok: true };
}

/** Policy entries that are not `*` or `provider/...` (a bare name would mean an anthropic model). */
function entryIssues(resolved: ResolvedModelPolicy): ModelPolicyIssue[] {
  const issues: ModelPolicyIssue[] = [];
  for (const list of ["allow", "forbid"] as const) {
    (resolved.policy[list] ?? []).forEach((entry, index) => {
      const text = String(entry).trim();
      if (text === "*" || (text.includes("/") && parseModelRef(text).ok)) return;
      const segments = [...resolved.path, list, index];
      issues.push({
        severity: "warning",
        path: formatConfigPath(segments),
        segments,
        message: `"${text}" is not a model ref: write provider/model or provider/* (aliases are not expanded here)`,
      });
    });
  }
  return issues;
}

function describeLink(role: "primary" | "fallback", path: PathSegment[]): string {
  if (path.length === 0) return "the built-in default model";
  return role === "primary" ? "primary model" : "fallback model";
}

/**
 * Every configured primary and fallback that breaks its agent's policy: an error under `fail`,
 * a warning under `warn`, at the path where the ref is written (shared defaults: once per agent).
 */
export function checkModelPolicyConfig(value: unknown): ModelPolicyIssue[] {
  const cfg = resolveRoster(value);
  const issues: ModelPolicyIssue[] = [];
  const seen = new Set<string>();
  for (const slot of listAgentSlots(cfg)) {
    const resolved = resolveAgentModelPolicy(cfg, slot.id);
    if (!resolved) continue;
    for (const issue of entryIssues(resolved)) {
      const key = `${issue.path}\u0000${issue.message}`;
      if (!seen.has(key)) issues.push(issue);
      seen.add(key);
    }
    const chain = resolveAgentModelChain({ cfg, agentId: slot.id });
    for (const link of chain.links) {
      const check = checkModelAgainstPolicy(link.ref, resolved.policy);
      if (check.ok) continue;
      const segments = link.path.length > 0 ? link.path : defaultsOf(cfg).pathOf("model");
      const where = describeLink(link.role, link.path);
      const message =
        `agent "${slot.id}": ${where} ${formatModelRef(link.ref)} breaks the model policy at ` +
        `${formatConfigPath(resolved.path)}: ${check.reason}` +
        (check.onMismatch === "fail" ? "" : " (onMismatch: warn)");
      const severity = check.onMismatch === "fail" ? "error" : "warning";
      const key = `${formatConfigPath(segments)}\u0000${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      issues.push({ severity, path: formatConfigPath(segments), segments, message });
    }
  }
  return issues;
}
