// Resolves the shared-secret settings: explicit overrides (CLI flags) win over OPENCLAW_GATEWAY_TOKEN,
// which wins over gateway.auth in the config. With no mode set: token if one is known, else password if
// one is known, else none. resolveGatewayAuth adds the auth-on-by-default fallback (the state dir's
// generated token when nothing configures auth) and is what both a fresh start and a live reload use.
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { isLoopbackAddress } from "../presence.js";
import type { SharedAuth } from "../ws/handshake.js";
import { ensureGatewayTokenFile, gatewayTokenPath } from "./token-file.js";

/** Raised when the auth settings cannot work (token mode without a token, unsupported modes). */
export class GatewayAuthConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GatewayAuthConfigError";
  }
}

const stringOf = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/** A configured secret that is not a plain string (a SecretRef) cannot be used yet: fail closed. */
function configuredSecret(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string") return value;
  throw new GatewayAuthConfigError(
    `gateway.auth.${key} must be a string here (SecretRef values are not resolved for gateway auth yet)`,
  );
}

/** The effective shared auth for new connections. */
export function resolveSharedAuth(params: {
  cfg: OpenClawConfig;
  env: Record<string, string | undefined>;
  overrides?: Partial<SharedAuth>;
}): SharedAuth {
  const configured = params.cfg.gateway?.auth;
  const token =
    params.overrides?.token ??
    stringOf(params.env.OPENCLAW_GATEWAY_TOKEN) ??
    configuredSecret(configured?.token, "token");
  const password =
    params.overrides?.password ??
    stringOf(params.env.OPENCLAW_GATEWAY_PASSWORD) ??
    configuredSecret(configured?.password, "password");
  const mode =
    params.overrides?.mode ??
    configured?.mode ??
    (token ? "token" : password ? "password" : "none");
  if (mode === "token" && !token) {
    throw new GatewayAuthConfigError(
      "auth mode is token but no token is set: use --token, OPENCLAW_GATEWAY_TOKEN or gateway.auth.token",
    );
  }
  if (mode === "password" && !password) {
    throw new GatewayAuthConfigError(
      "auth mode is password but no password is set: use --password or gateway.auth.password",
    );
  }
  if (mode !== "none" && mode !== "token" && mode !== "password") {
    throw new GatewayAuthConfigError(
      `auth mode ${mode} is not supported yet (use none, token or password)`,
    );
  }
  return { mode, ...(token ? { token } : {}), ...(password ? { password } : {}) };
}

/** The gateway's auth and where it came from. */
export interface GatewayAuthResolution {
  auth: SharedAuth;
  /** Set when nothing configured auth and the state dir's generated token is used. */
  tokenFile?: { path: string; created: boolean };
}

/** Inputs of {@link resolveGatewayAuth}. */
export interface ResolveGatewayAuthParams {
  cfg: OpenClawConfig;
  env: Record<string, string | undefined>;
  /** CLI flags; they win over env and config (and keep winning on reloads). */
  overrides?: Partial<SharedAuth>;
  stateDir: string;
}

function nothingConfigured(params: ResolveGatewayAuthParams): boolean {
  const { overrides, env } = params;
  const configured = params.cfg.gateway?.auth;
  return (
    !overrides?.mode &&
    !overrides?.token &&
    !overrides?.password &&
    !env.OPENCLAW_GATEWAY_TOKEN &&
    !env.OPENCLAW_GATEWAY_PASSWORD &&
    !configured?.mode &&
    !configured?.token &&
    !configured?.password
  );
}

/** The auth a gateway runs with, exactly as a fresh start resolves it: flags > env > config, and with
 * nothing configured the random token in `<stateDir>/gateway.token` (created on first use). Throws
 * {@link GatewayAuthConfigError} when the settings cannot work. */
export function resolveGatewayAuth(params: ResolveGatewayAuthParams): GatewayAuthResolution {
  if (!nothingConfigured(params)) {
    return {
      auth: resolveSharedAuth({
        cfg: params.cfg,
        env: params.env,
        ...(params.overrides ? { overrides: params.overrides } : {}),
      }),
    };
  }
  const { token, created } = ensureGatewayTokenFile(params.stateDir);
  return {
    auth: { mode: "token", token },
    tokenFile: { path: gatewayTokenPath(params.stateDir), created },
  };
}

/** Refuses auth mode none on an address beyond loopback (anyone reaching the port could drive the agents). */
export function assertAuthForHost(auth: SharedAuth, host: string): void {
  if (auth.mode !== "none" || isLoopbackAddress(host)) return;
  throw new GatewayAuthConfigError(
    `refusing to listen on ${host} without auth: anyone who can reach this port could run your agents ` +
      "and read your sessions. Use --auth token --token <secret> (or set OPENCLAW_GATEWAY_TOKEN), or keep --bind loopback.",
  );
}

/** Whether two shared-auth settings accept exactly the same secrets. */
export function sameSharedAuth(a: SharedAuth, b: SharedAuth): boolean {
  return a.mode === b.mode && a.token === b.token && a.password === b.password;
}
