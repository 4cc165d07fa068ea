// `pincer channels login --channel C [--account ID] [--force]`: links an account by QR code. When
// a gateway is reachable it drives the gateway's `web.login.start` / `web.login.wait` (the gateway
// is the one process that opens the account's session, and starts the account once linked);
// only when none answers does it link here, holding the account's auth-dir lock. The QR is drawn
// in the terminal and redrawn each time WhatsApp rotates it; the command ends linked or with why.
import { builtinChannelLoaders } from "../../channels/builtin.js";
import type { ChannelLogin, LoginAccount, LoginProgress } from "../../channels/index.js";
import { resolveLoginAccount } from "../../channels/login-account.js";
import { type ChannelAdapterLoader, createChannelRegistry } from "../../channels/registry.js";
import type { ChannelAdapter } from "../../channels/types.js";
import { qrTerminal } from "../../channels/whatsapp/web/qr-render.js";
import type { GatewayClient } from "../../client/index.js";
import { createEntryLogger } from "../../lib/logger.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson, printLine } from "../command-context.js";
import {
  connectForCli,
  type GatewayTarget,
  requestFailure,
  resolveGatewayTarget,
} from "../gateway-client-options.js";
import type { loginOptions } from "./commands.js";

/** What `channels login` / `logout` load channels from (the built-in adapters; tests pass fakes). */
export interface ChannelLoginDeps {
  loaders: Record<string, ChannelAdapterLoader>;
}

/** The channel whose login the gateway serves as `web.login.*` (WhatsApp Web, as in OpenClaw). */
export const GATEWAY_LOGIN_CHANNEL = "whatsapp";
/** How long a start waits for the first QR code. */
const FIRST_QR_MS = 30_000;
/** How long one wait lasts before asking again (each wait returns early on a new QR). */
const WAIT_SLICE_MS = 25_000;

/** The adapter, its login, the account and where a gateway would be; errors as CliErrors. */
export async function resolveLoginTarget(
  ctx: CliContext,
  opts: { channel: string; account?: string | undefined } & Parameters<
    typeof resolveGatewayTarget
  >[1],
  deps: ChannelLoginDeps,
): Promise<{
  adapter: ChannelAdapter;
  login: ChannelLogin;
  account: LoginAccount & { configured: boolean };
  target: GatewayTarget;
}> {
  const channel = opts.channel.trim().toLowerCase();
  const registry = createChannelRegistry({ loaders: deps.loaders });
  const adapter = await registry.load(channel);
  if (!adapter) {
    throw new CliError(
      `--channel "${opts.channel}": no such channel (known: ${registry.ids().join(", ")})`,
      ExitCode.usage,
    );
  }
  if (!adapter.login) {
    throw new CliError(
      `${channel} has no login: add its token with pincer channels add --channel ${channel}`,
      ExitCode.usage,
    );
  }
  const target = resolveGatewayTarget(ctx, opts);
  const chosen = resolveLoginAccount({
    cfg: target.loaded.config,
    adapter,
    accountId: opts.account,
  });
  if (!chosen.ok) throw new CliError(chosen.error, ExitCode.usage);
  const log = createEntryLogger((entry) => {
    if (entry.level === "warn" || entry.level === "error") ctx.stderr(`warning: ${entry.msg}\n`);
  });
  return {
    adapter,
    login: adapter.login,
    account: {
      ...chosen.account,
      stateDir: target.loaded.paths.stateDir,
      env: target.loaded.env,
      log,
    },
    target,
  };
}

/** The running gateway's client, or undefined when none is reachable (any other refusal throws:
 *  a gateway that runs must be the one to open the session). */
export async function connectIfRunning(
  ctx: CliContext,
  target: GatewayTarget,
): Promise<GatewayClient | undefined> {
  try {
    return await connectForCli(ctx, target);
  } catch (err) {
    if (err instanceof CliError && err.message.startsWith("gateway not reachable"))
      return undefined;
    throw err;
  }
}

/** One login, driven the same way locally or through the gateway. */
interface LoginDriver {
  start(force: boolean): Promise<LoginProgress>;
  wait(timeoutMs: number): Promise<LoginProgress>;
  cancel(): Promise<void>;
}

function gatewayDriver(client: GatewayClient, accountId: string, requestMs: number): LoginDriver {
  const call = async (method: string, params: object, timeoutMs: number) => {
    try {
      return await client.request<LoginProgress>(method, params, {
        timeoutMs: timeoutMs + requestMs,
      });
    } catch (err) {
      throw requestFailure(err, method);
    }
  };
  return {
    start: (force) =>
      call("web.login.start", { accountId, force, timeoutMs: FIRST_QR_MS }, FIRST_QR_MS),
    wait: (timeoutMs) => call("web.login.wait", { accountId, timeoutMs }, timeoutMs),
    // Disconnecting ends the wait at once; the gateway keeps the attempt until it links or
    // expires (a UI may still finish it).
    cancel: () => client.close(),
  };
}

function localDriver(login: ChannelLogin, account: LoginAccount): LoginDriver {
  return {
    start: (force) => login.start({ ...account, force, timeoutMs: FIRST_QR_MS }),
    wait: (timeoutMs) => login.wait({ accountId: account.accountId, timeoutMs }),
    cancel: () => login.cancel(account.accountId),
  };
}

/** Draws each new QR, waits until the attempt ends, prints how. */
async function driveLogin(
  ctx: CliContext,
  params: { driver: LoginDriver; accountId: string; force: boolean; json: boolean; via: string },
): Promise<number> {
  const { driver, accountId } = params;
  // With --json, stdout carries only the result: the QR goes to stderr.
  const draw = params.json ? ctx.stderr : ctx.stdout;
  let cancelled = false;
  const unsubscribe = ctx.onSignal(["SIGINT", "SIGTERM"], () => {
    cancelled = true;
    void driver.cancel();
  });
  try {
    let progress: LoginProgress;
    try {
      progress = await driver.start(params.force);
      let drawn: string | undefined;
      while (progress.state === "pending" && !cancelled) {
        if (progress.qr && progress.qr !== drawn) {
          drawn = progress.qr;
          draw(
            `${progress.message} (QR ${progress.qrCount ?? 1}; WhatsApp shows a new one about every 20 s, via ${params.via})\n`,
          );
          draw(`${qrTerminal(progress.qr)}\n`);
        }
        progress = await driver.wait(WAIT_SLICE_MS);
      }
    } catch (err) {
      // Ctrl-C closed the gateway connection under the request in flight.
      if (cancelled) throw new CliError("login cancelled");
      throw err;
    }
    if (params.json) printJson(ctx, { accountId, ...progress, qrDataUrl: undefined });
    if (progress.state === "linked") {
      if (!params.json) {
        const who = progress.e164 ?? progress.jid ?? "the account";
        printLine(
          ctx,
          progress.reason === "already-linked"
            ? progress.message
            : `Linked ${who} as account ${accountId}`,
        );
      }
      return ExitCode.ok;
    }
    if (cancelled) throw new CliError("login cancelled");
    throw new CliError(`login failed: ${progress.message}`);
  } finally {
    unsubscribe();
  }
}

/** `channels login` with the channels given (the command's `run` passes the built-in ones). */
export async function runLogin(
  ctx: CliContext,
  { opts }: InputOf<typeof loginOptions>,
  deps: ChannelLoginDeps,
): Promise<number> {
  const { login, account, target } = await resolveLoginTarget(ctx, opts, deps);
  const channel = opts.channel.trim().toLowerCase();
  const client =
    channel === GATEWAY_LOGIN_CHANNEL ? await connectIfRunning(ctx, target) : undefined;
  const common = { accountId: account.accountId, force: opts.force === true, json: !!opts.json };
  if (client) {
    try {
      return await driveLogin(ctx, {
        ...common,
        driver: gatewayDriver(client, account.accountId, target.timeoutMs),
        via: `the gateway at ${target.url}`,
      });
    } finally {
      await client.close();
    }
  }
  const code = await driveLogin(ctx, {
    ...common,
    driver: localDriver(login, account),
    via: "this process (no gateway running)",
  });
  if (code === ExitCode.ok && !account.configured && !opts.json) {
    printLine(ctx, `add channels.${channel} to the config so the gateway starts this account`);
  }
  return code;
}

/** Links an account (see the file comment). */
export function run(ctx: CliContext, input: InputOf<typeof loginOptions>): Promise<number> {
  return runLogin(ctx, input, { loaders: builtinChannelLoaders() });
}
