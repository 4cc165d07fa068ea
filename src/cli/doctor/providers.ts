// doctor's provider check: each configured model provider's `baseUrl` is reachable — DNS lookup, TCP
// connect, TLS handshake (src/lib/connection-cause.ts names which one failed), with a short timeout, all
// providers probed at once. `--offline` skips it; an unreachable provider is a warning (the network may
// come back), a baseUrl that is not an http(s) URL an error.
import { type ConnectionCause, probeConnection } from "../../lib/connection-cause.js";
import type { DoctorCheck, DoctorFinding } from "./finding.js";

/** Per-provider probe timeout. */
export const PROVIDER_PROBE_TIMEOUT_MS = 3000;

function providersOf(config: unknown): Array<{ id: string; baseUrl: unknown }> {
  const providers = (config as { models?: { providers?: unknown } }).models?.providers;
  if (typeof providers !== "object" || providers === null) return [];
  return Object.entries(providers as Record<string, unknown>).map(([id, value]) => ({
    id,
    baseUrl: (value as { baseUrl?: unknown } | null)?.baseUrl,
  }));
}

/** probeConnection bounded as a whole: its DNS lookup has no timeout of its own (a dead resolver can
 * take many seconds), so a probe still running after `ms` counts as a timeout. */
async function probeWithin(url: string, ms: number): Promise<ConnectionCause | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const host = new URL(url).hostname;
  const late = new Promise<ConnectionCause>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          kind: "timeout",
          code: "ETIMEDOUT",
          host,
          detail: `no answer from ${host} within ${ms} ms (DNS lookup or connect)`,
        }),
      ms + 500,
    );
  });
  try {
    return await Promise.race([probeConnection(url, { timeoutMs: ms }), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function probeProvider(id: string, baseUrl: unknown): Promise<DoctorFinding | undefined> {
  if (baseUrl === undefined) return undefined; // a built-in provider's own endpoint
  const path = `models.providers.${id}.baseUrl`;
  let url: URL | undefined;
  try {
    url = typeof baseUrl === "string" ? new URL(baseUrl) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return {
      checkId: "providers",
      severity: "error",
      message: `provider ${id}: ${path} ${JSON.stringify(baseUrl)} is not an http(s) URL`,
      fixHint: `set ${path} to the provider's API root, e.g. https://api.example.com/v1`,
    };
  }
  const cause = await probeWithin(url.href, PROVIDER_PROBE_TIMEOUT_MS);
  if (!cause) return undefined;
  return {
    checkId: "providers",
    severity: "warning",
    message: `provider ${id} is unreachable at ${url.origin}: ${cause.detail}`,
    fixHint:
      cause.kind === "dns"
        ? `check the host name in ${path} and this machine's DNS`
        : cause.kind === "tls"
          ? "the server's certificate is not trusted here (NODE_EXTRA_CA_CERTS adds a CA)"
          : `is the provider's server running and reachable from here? (${path})`,
  };
}

/** Reports configured providers whose baseUrl cannot be reached (skipped with --offline). */
export const providersCheck: DoctorCheck = {
  id: "providers",
  detect: async ({ loaded, offline }) => {
    const providers = providersOf(loaded.config).filter((p) => p.baseUrl !== undefined);
    if (providers.length === 0) return [];
    if (offline) {
      return [
        {
          checkId: "providers",
          severity: "info",
          message: `skipped the reachability probe of ${providers.length} provider(s) (--offline)`,
        },
      ];
    }
    const results = await Promise.all(providers.map((p) => probeProvider(p.id, p.baseUrl)));
    return results.filter((finding): finding is DoctorFinding => finding !== undefined);
  },
};
