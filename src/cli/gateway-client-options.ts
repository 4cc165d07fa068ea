// Shared by the commands that talk to a running gateway (`gateway call`, `health`, `status`, `agent`):
// --url / --token / --password / --timeout resolution from flags, env and config, connecting as the
// `cli` client, and turning client errors into CLI errors with a hint.

import { readFileSync } from "node:fs";
import {
  connectGateway,
  type GatewayClient,
  GatewayRequestError,
  type WebSocketConstructor,
} from "../client/index.js";
import type { LoadedConfig } from "../config/index.js";
import { readGatewayTokenFile } from "../gateway/auth/token-file.js";
import { type CliContext, CliError, ExitCode } from "./command-context.js";
import { loadForCli } from "./load.js";

/** Default gateway port when the config sets none. */
export const DEFAULT_GATEWAY_PORT = 18789;
/** Default `--timeout` in ms (connect and each request). */
export const DEFAULT_CLIENT_TIMEOUT_MS = 10_000;
/** Scopes the CLI asks for: an operator with admin rights, like OpenClaw's CLI. */
export const CLI_SCOPES = ["operator.admin", "operator.read", "operator.write"];

/** The shared connection flags of gateway client commands. */
export interface GatewayClientFlags {
  url?: string;
  token?: string;
  password?: string;
  /** Milliseconds, as typed. */
  timeout?: string;
  json?: boolean;
}

/** Where and how to connect, resolved from flags, env and config. */
export interface GatewayTarget {
  url: string;
  token?: string;
  password?: string;
  timeoutMs: number;
  loaded: LoadedConfig;
}

const stringOf = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/** Parses a positive integer flag (`--timeout 5000`), else a usage error naming the flag. */
export function parsePositiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new CliError(`${flag} "${value}": expected a whole number above 0`, ExitCode.usage);
  }
  return n;
}

/** `--url` (else ws://127.0.0.1:<gateway.port|18789>), `--token` (else env, auth, remote, the state
 * dir's generated gateway.token), `--timeout`. */
export function resolveGatewayTarget(
  ctx: CliContext,
  flags: Omit<GatewayClientFlags, "json">,
): GatewayTarget {
  const loaded = loadForCli(ctx, { requireValid: false });
  const gateway = loaded.config.gateway;
  const port = typeof gateway?.port === "number" ? gateway.port : DEFAULT_GATEWAY_PORT;
  const url = flags.url ?? `ws://127.0.0.1:${port}`;
  if (!/^wss?:\/\//.test(url)) {
    throw new CliError(`--url "${url}": expected ws://host:port or wss://…`, ExitCode.usage);
  }
  const token =
    stringOf(flags.token) ??
    stringOf(loaded.env.OPENCLAW_GATEWAY_TOKEN) ??
    stringOf(gateway?.auth?.token) ??
    stringOf(gateway?.remote?.token) ??
    // A local gateway with no auth configured uses the state dir's generated token.
    (flags.password ? undefined : readGatewayTokenFile(loaded.paths.stateDir));
  const password =
    stringOf(flags.password) ??
    stringOf(loaded.env.OPENCLAW_GATEWAY_PASSWORD) ??
    stringOf(gateway?.auth?.password) ??
    stringOf(gateway?.remote?.password);
  const timeoutMs = parsePositiveInt(flags.timeout, "--timeout") ?? DEFAULT_CLIENT_TIMEOUT_MS;
  return {
    url,
    timeoutMs,
    loaded,
    ...(token ? { token } : {}),
    ...(password ? { password } : {}),
  };
}

function cliVersion(): string {
  const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}

/** `CODE (DETAIL): message` for a gateway error. */
export function describeGatewayError(err: GatewayRequestError): string {
  const detail = err.detailCode ? ` (${err.detailCode})` : "";
  return `${err.code}${detail}: ${err.message}`;
}

/** Why a connect failed, as a CliError; `hint` is appended when the gateway is not reachable. */
export function connectFailure(
  err: unknown,
  params: { url: string; hint?: string },
): CliError | undefined {
  if (!(err instanceof GatewayRequestError)) return undefined;
  const hint = params.hint ? `\n  ${params.hint}` : "";
  if (err.code === "UNREACHABLE") {
    return new CliError(`gateway not reachable at ${params.url}${hint}`);
  }
  if (err.code === "TIMEOUT" || err.code === "CLOSED" || err.code === "BAD_FRAME") {
    return new CliError(`gateway at ${params.url} did not complete the handshake: ${err.message}`);
  }
  const authHint = err.detailCode?.startsWith("AUTH_")
    ? "\n  pass --token / --password, or set OPENCLAW_GATEWAY_TOKEN"
    : "";
  return new CliError(`gateway refused the connection: ${describeGatewayError(err)}${authHint}`);
}

/** Connects as the `cli` client; a failure becomes a CliError ("gateway not reachable at URL"). */
export async function connectForCli(
  ctx: CliContext,
  target: GatewayTarget,
  options: { hint?: string; caps?: string[]; WebSocketImpl?: WebSocketConstructor } = {},
): Promise<GatewayClient> {
  try {
    return await connectGateway({
      url: target.url,
      ...(target.token ? { token: target.token } : {}),
      ...(target.password ? { password: target.password } : {}),
      client: { id: "cli", version: cliVersion(), platform: ctx.platform, mode: "cli" },
      role: "operator",
      scopes: CLI_SCOPES,
      ...(options.caps ? { caps: options.caps } : {}),
      timeoutMs: target.timeoutMs,
      onHandlerError: (err, event) =>
        ctx.stderr(`warning: handling ${event.event} failed: ${String(err)}\n`),
      ...(options.WebSocketImpl ? { WebSocketImpl: options.WebSocketImpl } : {}),
    });
  } catch (err) {
    const failure = connectFailure(err, {
      url: target.url,
      ...(options.hint ? { hint: options.hint } : {}),
    });
    if (failure) throw failure;
    throw err;
  }
}

/** Turns a failed request into a CliError (`CODE (DETAIL): message`); rethrows anything else. */
export function requestFailure(err: unknown, method: string): CliError {
  if (err instanceof GatewayRequestError) {
    return new CliError(`${method} failed: ${describeGatewayError(err)}`);
  }
  throw err;
}
