// `pincer onboard --non-interactive`: OpenClaw's flag shapes turned into the wizard's answers. Values
// Pincer cannot honour (remote mode, `--reset`, bun, auth `none`…) are usage errors naming the flag;
// gateway settings not given keep the config's current ones (a token is generated only when none).
import type { LoadedConfig } from "../../config/index.js";
import { CliError, ExitCode } from "../command-context.js";
import { workspaceValue } from "../setup/setup.js";
import type { OnboardFlags } from "./commands.js";
import { modelAnswerFromFlags } from "./model-flags.js";
import {
  type ChannelAnswer,
  DEFAULT_GATEWAY_PORT,
  type GatewayAnswer,
  generateGatewayToken,
  parsePort,
  type WizardAnswers,
} from "./wizard-answers.js";

const usage = (message: string) => new CliError(message, ExitCode.usage);

/** Wizard flows: quickstart asks the least (gateway defaults); advanced/manual ask everything. */
export type WizardFlow = "quickstart" | "advanced";

/** Checks the flags every mode shares; returns the flow. */
export function checkCommonFlags(opts: OnboardFlags): WizardFlow {
  if (opts.mode !== undefined && opts.mode !== "local") {
    throw usage(
      `--mode "${opts.mode}" is not supported: Pincer's onboard sets up a local gateway (--mode local)`,
    );
  }
  if (opts.remoteUrl !== undefined)
    throw usage("--remote-url is not supported (--mode local only)");
  if (opts.reset) {
    throw usage("--reset is not supported: onboard never deletes config, credentials or sessions");
  }
  if (opts.daemonRuntime !== undefined && opts.daemonRuntime !== "node")
    throw usage(`--daemon-runtime "${opts.daemonRuntime}" is not supported (node only)`);
  const flow = opts.flow ?? "quickstart";
  if (flow === "quickstart") return "quickstart";
  if (flow === "advanced" || flow === "manual") return "advanced";
  throw usage(`--flow "${flow}" is not supported; use quickstart, advanced or manual`);
}

const BINDS = ["loopback", "lan", "tailnet"] as const;

const stringAt = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/** The gateway as configured now, for defaults: plain secrets, and whether one is set at all. */
export interface CurrentGateway {
  port?: number;
  bind?: GatewayAnswer["bind"];
  mode?: string;
  token?: string;
  password?: string;
  /** A token is configured, possibly as a SecretRef (then `token` is unset). */
  hasToken: boolean;
  hasPassword: boolean;
}

const isSet = (value: unknown) => value !== undefined && value !== null && value !== "";

/** Reads {@link CurrentGateway} from the loaded config. */
export function currentGateway(loaded: LoadedConfig): CurrentGateway {
  const gw = loaded.config.gateway;
  const bind = gw?.bind;
  const token = stringAt(gw?.auth?.token);
  const password = stringAt(gw?.auth?.password);
  return {
    ...(typeof gw?.port === "number" ? { port: gw.port } : {}),
    ...(bind && (BINDS as readonly string[]).includes(bind)
      ? { bind: bind as GatewayAnswer["bind"] }
      : {}),
    ...(gw?.auth?.mode ? { mode: gw.auth.mode } : {}),
    ...(token ? { token } : {}),
    ...(password ? { password } : {}),
    hasToken: isSet(gw?.auth?.token),
    hasPassword: isSet(gw?.auth?.password),
  };
}

/** The token to write: the given one, else the configured plain one, else undefined to keep a
 * configured SecretRef as it is, else a new random one. */
export function gatewayTokenFor(current: CurrentGateway, given?: string): string | undefined {
  if (given) return given;
  if (current.token) return current.token;
  return current.hasToken ? undefined : generateGatewayToken();
}

function gatewayFromFlags(opts: OnboardFlags, loaded: LoadedConfig): GatewayAnswer {
  const current = currentGateway(loaded);
  let port = current.port ?? DEFAULT_GATEWAY_PORT;
  if (opts.gatewayPort !== undefined) {
    const parsed = parsePort(opts.gatewayPort);
    if (parsed === undefined)
      throw usage(`--gateway-port "${opts.gatewayPort}": expected a port number 1-65535`);
    port = parsed;
  }
  const bind = opts.gatewayBind ?? current.bind ?? "loopback";
  if (!(BINDS as readonly string[]).includes(bind)) {
    throw usage(
      `--gateway-bind "${bind}" is not supported by onboard; use ${BINDS.join(", ")} (custom: pincer config set gateway.customBindHost)`,
    );
  }
  const currentMode = current.mode === "password" ? "password" : "token";
  const mode = opts.gatewayAuth ?? currentMode;
  if (mode === "token") {
    const token = gatewayTokenFor(current, opts.gatewayToken?.trim());
    return { port, bind: bind as GatewayAnswer["bind"], auth: { mode, token } };
  }
  if (mode === "password") {
    const password = opts.gatewayPassword ?? current.password;
    if (!password && !current.hasPassword)
      throw usage("--gateway-auth password needs --gateway-password");
    return { port, bind: bind as GatewayAnswer["bind"], auth: { mode, password } };
  }
  throw usage(
    `--gateway-auth "${mode}" is not supported by onboard (token or password; the gateway fails closed)`,
  );
}

/** A Telegram bot token looks like `123456789:AA…`. */
const TELEGRAM_TOKEN = /^\d{3,}:[A-Za-z0-9_-]{20,}$/;

/** Checks a pasted Telegram bot token's shape; the error names what is wrong. */
export function checkTelegramToken(token: string): string | undefined {
  if (token.trim() === "") return "the bot token is empty";
  if (!TELEGRAM_TOKEN.test(token.trim()))
    return "that does not look like a Telegram bot token (digits, a colon, then 20+ letters, from @BotFather)";
  return undefined;
}

function channelFromFlags(opts: OnboardFlags): ChannelAnswer | undefined {
  if (opts.telegramToken === undefined) return undefined;
  if (opts.skipChannels) throw usage("--telegram-token and --skip-channels contradict each other");
  const problem = checkTelegramToken(opts.telegramToken);
  if (problem) throw usage(`--telegram-token: ${problem}`);
  return { channel: "telegram", account: "default", token: opts.telegramToken.trim() };
}

/** The answers of `--non-interactive` (requires `--accept-risk`, as in OpenClaw). */
export function answersFromFlags(
  opts: OnboardFlags,
  params: { loaded: LoadedConfig; env: Record<string, string | undefined> },
): WizardAnswers {
  if (!opts.acceptRisk) {
    throw usage(
      "--non-interactive requires --accept-risk (agents can run tools with your user's rights; say you know)",
    );
  }
  checkCommonFlags(opts);
  const { loaded } = params;
  const model = modelAnswerFromFlags(opts, params.env);
  const channel = channelFromFlags(opts);
  const workspace =
    opts.workspace !== undefined ? workspaceValue(opts.workspace, loaded.paths) : undefined;
  return {
    ...(model ? { model } : {}),
    ...(workspace !== undefined ? { workspace } : {}),
    gateway: gatewayFromFlags(opts, loaded),
    ...(channel ? { channel } : {}),
  };
}
