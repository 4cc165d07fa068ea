// The Control UI address of the configured gateway (with `gateway.controlUi.basePath`), and the token
// link that signs the page in. The UI takes `#token=…` from the address once, keeps it in the tab's sessionStorage and strips it
// from the address bar (src/ui/control/token-store.ts); a fragment never reaches the server or its logs.
import type { LoadedConfig } from "../../config/index.js";
import { GatewayAuthConfigError, resolveSharedAuth } from "../../gateway/auth/shared-secret.js";
import { gatewayTokenPath, readGatewayTokenFile } from "../../gateway/auth/token-file.js";
import { normalizeUiBasePath } from "../../gateway/http/ui-base-path.js";
import { findTailnetAddress } from "../../gateway/net/tailnet.js";
import { DEFAULT_GATEWAY_PORT } from "../gateway-client-options.js";

/** Where the UI is and how the link signs in. */
export interface DashboardTarget {
  /** The page without credentials, e.g. `http://127.0.0.1:18789/`. */
  baseUrl: string;
  /** The page with `#token=…` when token auth is on and the token is known; else the base URL. */
  url: string;
  authMode: "none" | "token" | "password" | "unknown";
  tokenIncluded: boolean;
  /** False when `gateway.controlUi.enabled` is false (the gateway serves no page). */
  uiEnabled: boolean;
  /** Things the user should know (no token yet, password to type, TLS not served, …). */
  notes: string[];
}

/** The host a local browser reaches the gateway on, for its bind mode. */
function browserHost(loaded: LoadedConfig, notes: string[]): string {
  const gateway = loaded.config.gateway;
  const bind = gateway?.bind ?? "loopback";
  if (bind === "tailnet") {
    const address = findTailnetAddress();
    if (address) return address;
    notes.push("gateway.bind is tailnet but this host has no Tailscale address; showing loopback");
    return "127.0.0.1";
  }
  if (bind === "custom" && gateway?.customBindHost && gateway.customBindHost !== "0.0.0.0") {
    return gateway.customBindHost;
  }
  // loopback, lan (all interfaces, so loopback works here) and custom 0.0.0.0.
  return "127.0.0.1";
}

/** True when nothing sets gateway auth, so the gateway uses the state dir's generated token. */
function authUnconfigured(loaded: LoadedConfig, env: Record<string, string | undefined>): boolean {
  const auth = loaded.config.gateway?.auth;
  return (
    !env.OPENCLAW_GATEWAY_TOKEN &&
    !env.OPENCLAW_GATEWAY_PASSWORD &&
    !auth?.mode &&
    !auth?.token &&
    !auth?.password
  );
}

/** The token the gateway accepts (undefined for none/password), or why it is not known. */
function resolveToken(
  loaded: LoadedConfig,
  env: Record<string, string | undefined>,
  notes: string[],
): { mode: DashboardTarget["authMode"]; token?: string } {
  const stateDir = loaded.paths.stateDir;
  if (authUnconfigured(loaded, env)) {
    const token = readGatewayTokenFile(stateDir);
    if (!token) {
      notes.push(
        `no token yet: the gateway creates ${gatewayTokenPath(stateDir)} when it first starts; run pincer dashboard again then`,
      );
    }
    return { mode: "token", ...(token ? { token } : {}) };
  }
  try {
    const auth = resolveSharedAuth({ cfg: loaded.config, env });
    if (auth.mode === "password") {
      notes.push("the gateway uses password auth: enter the password in the page");
    }
    return {
      mode: auth.mode,
      ...(auth.mode === "token" && auth.token ? { token: auth.token } : {}),
    };
  } catch (err) {
    if (!(err instanceof GatewayAuthConfigError)) throw err;
    notes.push(`${err.message}; the link carries no token`);
    return { mode: "unknown" };
  }
}

/** Resolves the UI address of the configured gateway and its token link. */
export function resolveDashboardTarget(
  loaded: LoadedConfig,
  env: Record<string, string | undefined>,
): DashboardTarget {
  const notes: string[] = [];
  const gateway = loaded.config.gateway;
  const port = typeof gateway?.port === "number" ? gateway.port : DEFAULT_GATEWAY_PORT;
  const host = browserHost(loaded, notes);
  if (gateway?.tls?.enabled === true) {
    notes.push("gateway.tls.enabled is set, but Pincer serves plain HTTP; the URL is http://");
  }
  const hostPart = host.includes(":") ? `[${host}]` : host;
  const base = normalizeUiBasePath(gateway?.controlUi?.basePath);
  if (!base.ok) notes.push(`${base.message}: the gateway serves no Control UI until it is fixed`);
  const baseUrl = `http://${hostPart}:${port}${base.ok ? base.path : ""}/`;
  const { mode, token } = resolveToken(loaded, env, notes);
  return {
    baseUrl,
    url: token ? `${baseUrl}#token=${encodeURIComponent(token)}` : baseUrl,
    authMode: mode,
    tokenIncluded: token !== undefined,
    uiEnabled: gateway?.controlUi?.enabled !== false,
    notes,
  };
}
