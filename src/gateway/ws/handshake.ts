// The connect handshake: protocol negotiation (any range that includes 3 or 4, highest common wins),
// shared-secret auth (gateway.auth), the optional device authority, then failed-auth rate limiting of
// wrong guesses only (a correct credential is checked first and always passes).
import { sameSecret } from "../../lib/same-secret.js";
import {
  type ConnectParams,
  DetailCodes,
  ErrorCodes,
  type GatewayErrorShape,
  gatewayError,
} from "../../protocol/gateway/index.js";
import type { AuthRateLimiter } from "../auth/failed-auth-limit.js";

/** Protocol versions this gateway speaks. */
export const SUPPORTED_PROTOCOLS = [3, 4] as const;
/** Largest frame accepted before hello (64 KiB). */
export const MAX_PREAUTH_PAYLOAD_BYTES = 65_536;
/** Largest frame accepted after hello (25 MiB). */
export const MAX_PAYLOAD_BYTES = 26_214_400;
/** Outgoing buffer bound per client (50 MiB); beyond it the client is dropped with 1013. */
export const MAX_BUFFERED_BYTES = 52_428_800;
/** Interval of `tick` events. */
export const TICK_INTERVAL_MS = 30_000;

/** Shared-secret settings (from `gateway.auth` or CLI flags). */
export interface SharedAuth {
  mode: "none" | "token" | "password";
  token?: string;
  password?: string;
}

/** What a device authority sees of a connect. */
export interface DeviceConnectInput {
  params: ConnectParams;
  /** The nonce and ts of this connection's `connect.challenge`. */
  challenge: { nonce: string; ts: number };
  remoteAddress: string;
  isLoopback: boolean;
  /** Whether the shared secret (or mode none on loopback) already authenticated the client. */
  sharedAuthOk: boolean;
  /** The role and scopes the connection would be granted (omitted scopes already defaulted). */
  access: { role: "operator" | "node"; scopes: string[] };
}

/** Verifies `connect.device` (Ed25519 proof, pairing, device tokens); implemented in ./devices/. */
export interface DeviceAuthority {
  verifyConnect(
    input: DeviceConnectInput,
  ): Promise<
    | { ok: true; deviceId: string; deviceToken?: string; issuedAtMs?: number }
    | { ok: false; error: GatewayErrorShape }
  >;
}

/** An accepted handshake. */
export interface HandshakeAccepted {
  ok: true;
  protocol: number;
  role: "operator" | "node";
  scopes: string[];
  method: "none" | "token" | "password" | "device";
  deviceId?: string;
  deviceToken?: string;
  issuedAtMs?: number;
}

/** A refused handshake: the error response, then a close with `closeCode`. */
export interface HandshakeRefused {
  ok: false;
  error: GatewayErrorShape;
  closeCode: number;
}

/** Inputs of {@link runHandshake}. */
export interface HandshakeInput {
  params: ConnectParams;
  auth: SharedAuth;
  challenge: { nonce: string; ts: number };
  remoteAddress: string;
  isLoopback: boolean;
  limiter: AuthRateLimiter;
  authority?: DeviceAuthority;
}

/** Highest version both sides speak, or undefined. */
export function negotiateProtocol(min: number, max: number): number | undefined {
  const common = SUPPORTED_PROTOCOLS.filter((version) => version >= min && version <= max);
  return common.length ? Math.max(...common) : undefined;
}

const refuse = (error: GatewayErrorShape, closeCode = 1008): HandshakeRefused => ({
  ok: false,
  error,
  closeCode,
});

function secretCheck(input: HandshakeInput): "ok" | "missing" | HandshakeRefused {
  const { auth, params } = input;
  if (auth.mode === "none") return input.isLoopback ? "ok" : "missing";
  const expected = auth.mode === "token" ? auth.token : auth.password;
  const given = params.auth?.token ?? params.auth?.password;
  if (given === undefined || given === "") return "missing";
  if (expected !== undefined && expected !== "" && sameSecret(given, expected)) return "ok";
  const word = auth.mode === "token" ? "token" : "password";
  const code =
    auth.mode === "token" ? DetailCodes.AUTH_TOKEN_MISMATCH : DetailCodes.AUTH_PASSWORD_MISMATCH;
  return refuse(
    gatewayError(
      ErrorCodes.INVALID_REQUEST,
      `unauthorized: gateway ${word} mismatch (check auth.${word} against the gateway's ${word})`,
      {
        details: {
          code,
          authReason: `${word}_mismatch`,
          canRetryWithDeviceToken: false,
          recommendedNextStep: "update_auth_credentials",
        },
      },
    ),
  );
}

function defaultScopes(params: ConnectParams): string[] {
  return params.scopes ?? ["operator.read", "operator.write"];
}

/** Detail codes of a wrong secret: the only refusals the failed-auth limiter counts. */
const GUESS_DETAIL_CODES = new Set<unknown>([
  DetailCodes.AUTH_TOKEN_MISMATCH,
  DetailCodes.AUTH_PASSWORD_MISMATCH,
  "DEVICE_TOKEN_INVALID",
]);

/**
 * Runs the whole handshake. The credential is checked before the rate limit, so a correct one always
 * passes and is never counted; a wrong guess is counted against the remote address's bucket and, once
 * the bucket is over the limit, answered AUTH_RATE_LIMITED instead of the mismatch.
 */
export async function runHandshake(
  input: HandshakeInput,
): Promise<HandshakeAccepted | HandshakeRefused> {
  const { params } = input;
  const protocol = negotiateProtocol(params.minProtocol, params.maxProtocol);
  if (protocol === undefined) {
    return refuse(
      gatewayError(ErrorCodes.INVALID_REQUEST, "protocol mismatch", {
        details: {
          code: DetailCodes.PROTOCOL_MISMATCH,
          clientMinProtocol: params.minProtocol,
          clientMaxProtocol: params.maxProtocol,
          expectedProtocol: 4,
          supportedProtocols: [...SUPPORTED_PROTOCOLS],
          minimumProbeProtocol: 3,
        },
      }),
      1002,
    );
  }
  const result = await authenticate(input, protocol);
  if (result.ok || !GUESS_DETAIL_CODES.has(result.error.details?.code)) return result;
  const waitMs = input.limiter.retryAfterMs(input.remoteAddress);
  input.limiter.fail(input.remoteAddress);
  if (waitMs === 0) return result;
  return refuse(
    gatewayError(ErrorCodes.UNAVAILABLE, "too many failed authentication attempts; retry later", {
      details: { code: DetailCodes.AUTH_RATE_LIMITED, authReason: "rate_limited" },
      retryable: true,
      retryAfterMs: waitMs,
    }),
  );
}

async function authenticate(
  input: HandshakeInput,
  protocol: number,
): Promise<HandshakeAccepted | HandshakeRefused> {
  const { params } = input;
  const role: "operator" | "node" =
    (params.role as string | undefined) === "node" ? "node" : "operator";
  const secret = secretCheck(input);
  if (typeof secret === "object") return secret;
  const sharedAuthOk = secret === "ok";
  const base = {
    ok: true as const,
    protocol,
    role,
    scopes: role === "node" ? [] : defaultScopes(params),
  };
  if (params.device && input.authority) {
    // Without the shared secret the authority grants at most what the device was approved for.
    const verdict = await input.authority.verifyConnect({
      params,
      challenge: input.challenge,
      remoteAddress: input.remoteAddress,
      isLoopback: input.isLoopback,
      sharedAuthOk,
      access: { role, scopes: base.scopes },
    });
    if (!verdict.ok) return refuse(verdict.error);
    const { ok: _ok, ...device } = verdict;
    return { ...base, method: sharedAuthOk ? sharedMethod(input.auth) : "device", ...device };
  }
  if (sharedAuthOk) return { ...base, method: sharedMethod(input.auth) };
  if (input.auth.mode === "none") {
    return refuse(
      gatewayError(ErrorCodes.NOT_PAIRED, "device identity required", {
        details: { code: DetailCodes.DEVICE_IDENTITY_REQUIRED },
      }),
    );
  }
  const word = input.auth.mode === "token" ? "token" : "password";
  return refuse(
    gatewayError(
      ErrorCodes.INVALID_REQUEST,
      `unauthorized: gateway ${word} missing (set auth.${word})`,
      {
        details: { code: DetailCodes.AUTH_TOKEN_MISSING, authReason: `${word}_missing` },
      },
    ),
  );
}

function sharedMethod(auth: SharedAuth): HandshakeAccepted["method"] {
  return auth.mode;
}
