// Which pi-ai provider modules the configured agents' primary models stream through, and loading
// them ahead of the first turn. pi-ai imports a provider (and its SDK, e.g. openai's) on the first
// stream of that API; importing the same public entry first leaves it cached for that import.
import type { ResolvedConfig } from "../../config/index.js";
import { listAgentSlots } from "../../runtime/models/config-view.js";
import { resolveAgentModelChain } from "../../runtime/models/refs.js";
import { resolveModel } from "../../runtime/models/registry.js";

const PROVIDER_MODULES: Record<string, () => Promise<unknown>> = {
  "openai-completions": () => import("@mariozechner/pi-ai/openai-completions"),
  "openai-responses": () => import("@mariozechner/pi-ai/openai-responses"),
  "azure-openai-responses": () => import("@mariozechner/pi-ai/azure-openai-responses"),
  "openai-codex-responses": () => import("@mariozechner/pi-ai/openai-codex-responses"),
  "anthropic-messages": () => import("@mariozechner/pi-ai/anthropic"),
  "google-generative-ai": () => import("@mariozechner/pi-ai/google"),
  "google-vertex": () => import("@mariozechner/pi-ai/google-vertex"),
  "mistral-conversations": () => import("@mariozechner/pi-ai/mistral"),
};

/** The ids of every configured agent (the implicit main one when none is listed). */
export function configuredAgentIds(resolved: ResolvedConfig): string[] {
  return listAgentSlots(resolved).map((slot) => slot.id);
}

/** The APIs of every agent's primary model that resolves (unknown refs are the run's to report). */
export function primaryModelApis(
  resolved: ResolvedConfig,
  env: Record<string, string | undefined>,
): string[] {
  const apis = new Set<string>();
  for (const slot of listAgentSlots(resolved)) {
    const chain = resolveAgentModelChain({ cfg: resolved, agentId: slot.id });
    const primary = chain.links.find((link) => link.role === "primary");
    if (!primary) continue;
    const model = resolveModel({ cfg: resolved.config, ref: primary.ref, env });
    if (model.ok) apis.add(model.model.api);
  }
  return [...apis];
}

/**
 * Imports the provider modules of `apis` (APIs without a separate module are skipped), then sends
 * one request through Node's fetch to `warmUrl` (the gateway's own `GET /health`), so the first
 * model request does not pay for loading undici and its HTTP parser (the SDKs all use fetch); a
 * failed request is answered as `fetchError`, never thrown.
 */
export async function loadProviderModules(
  apis: string[],
  warmUrl?: string,
): Promise<{ fetchError?: string }> {
  await Promise.all(apis.map((api) => PROVIDER_MODULES[api]?.()));
  if (!warmUrl) return {};
  // A failed warm request (the gateway stopping, a proxy in the way) costs only its warmth.
  try {
    const res = await fetch(warmUrl, { signal: AbortSignal.timeout(5000) });
    await res.text();
    return {};
  } catch (err) {
    return { fetchError: String(err) };
  }
}
