// Whether a live config reload may change the running gateway's auth. The new auth is resolved exactly
// as a fresh start would (resolveGatewayAuth: flags > env > config > the state dir's token file). A
// reload that would lower auth is refused while running and applies only on a restart:
// - token/password -> none;
// - none while listening beyond loopback, or a newly written bind beyond loopback with auth none
//   (a restart with that file would refuse to start);
// - settings that cannot work at all (token mode without a token, a mode not supported).
// Token -> another token, password <-> token and none -> token/password apply live: a secret stays
// required. Connections authenticated with the old secret take no new requests and are closed (1008)
// once their in-flight requests are answered; device-token connections stay.
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { isLoopbackAddress } from "../presence.js";
import type { SharedAuth } from "../ws/handshake.js";
import {
  GatewayAuthConfigError,
  type GatewayAuthResolution,
  resolveGatewayAuth,
  sameSharedAuth,
} from "./shared-secret.js";

/** Why a reload's auth was refused. */
export type AuthRefusalReason = "auth-weakened" | "auth-unusable";

/** The verdict on a reload's auth: the auth to switch to, or why it stays as it is. */
export type AuthReloadVerdict =
  | { ok: true; resolution: GatewayAuthResolution; changed: boolean }
  | { ok: false; reason: AuthRefusalReason; message: string };

/** Inputs of {@link judgeAuthReload}. */
export interface JudgeAuthReloadParams {
  /** The auth the gateway runs with now. */
  current: SharedAuth;
  /** The config it runs with now, and the one the reload would switch to. */
  runningConfig: OpenClawConfig;
  nextConfig: OpenClawConfig;
  env: Record<string, string | undefined>;
  overrides?: Partial<SharedAuth>;
  stateDir: string;
  /** The address the gateway listens on (fixed until a restart). */
  listenHost: string;
}

/** True when the config's own bind setting would listen beyond loopback. */
function bindBeyondLoopback(cfg: OpenClawConfig): boolean {
  const bind = cfg.gateway?.bind ?? "loopback";
  if (bind === "loopback") return false;
  if (bind === "custom") return !isLoopbackAddress(cfg.gateway?.customBindHost);
  return true;
}

const RESTART_HINT = "it applies only when the gateway restarts";

/** Judges the auth of a config the gateway is about to reload (fail closed: any doubt keeps the running auth). */
export function judgeAuthReload(params: JudgeAuthReloadParams): AuthReloadVerdict {
  const { current, listenHost } = params;
  let resolution: GatewayAuthResolution;
  try {
    resolution = resolveGatewayAuth({
      cfg: params.nextConfig,
      env: params.env,
      stateDir: params.stateDir,
      ...(params.overrides ? { overrides: params.overrides } : {}),
    });
  } catch (err) {
    if (!(err instanceof GatewayAuthConfigError)) throw err;
    return {
      ok: false,
      reason: "auth-unusable",
      message: `the new gateway.auth settings cannot be used (${err.message}); the gateway keeps ${current.mode} auth`,
    };
  }
  const next = resolution.auth;
  if (next.mode === "none" && current.mode !== "none") {
    return {
      ok: false,
      reason: "auth-weakened",
      message: `the new config turns gateway auth off (${current.mode} -> none); refused while running, the gateway keeps ${current.mode} auth: ${RESTART_HINT}`,
    };
  }
  if (next.mode === "none" && !isLoopbackAddress(listenHost)) {
    return {
      ok: false,
      reason: "auth-weakened",
      message: `the new config leaves ${listenHost} without auth; refused while running: ${RESTART_HINT}`,
    };
  }
  if (
    next.mode === "none" &&
    bindBeyondLoopback(params.nextConfig) &&
    !bindBeyondLoopback(params.runningConfig)
  ) {
    const bind = params.nextConfig.gateway?.bind;
    return {
      ok: false,
      reason: "auth-weakened",
      message: `the new config binds beyond loopback (gateway.bind ${bind}) without auth; refused (a restart with it would refuse to start)`,
    };
  }
  return { ok: true, resolution, changed: !sameSharedAuth(current, next) };
}
