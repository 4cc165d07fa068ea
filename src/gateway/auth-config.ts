// Resolves the shared-secret settings: explicit overrides (CLI flags) win over OPENCLAW_GATEWAY_TOKEN,
// which wins over gateway.auth in the config. With no mode set: token if one is known, else
// password if one is known, else none.
import type { OpenClawConfig } from "../protocol/config/index.js";
import type { SharedAuth } from "./handshake.js";

/** Raised when the auth settings cannot work (token mode without a token, unsupported modes). */
export class GatewayAuthConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GatewayAuthConfigError";
  }
}

const stringOf = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

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
    stringOf(configured?.token);
  const password =
    params.overrides?.password ??
    stringOf(params.env.OPENCLAW_GATEWAY_PASSWORD) ??
    stringOf(configured?.password);
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
