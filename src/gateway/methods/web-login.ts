// Linking methods, OpenClaw's names and shapes: `web.login.start` / `web.login.wait` link a
// WhatsApp Web account by QR (the UI shows `qrDataUrl`, a terminal draws `qr`), `channels.logout`
// unlinks one. The gateway is the one process that opens an account's session: the account's
// running session is stopped (held) while a login or logout has its own open, and started again
// afterwards, so a freshly linked account comes online without a restart. All operator.admin: they
// decide which phone number the gateway speaks as.
import type { ChannelLogin, LoginAccount, LoginSessionHooks } from "../../channels/index.js";
import { resolveLoginAccount } from "../../channels/login-account.js";
import type { ChannelAdapter } from "../../channels/types.js";
import { ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import { type CallOf, defineMethod, fail, type MethodResult, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";
import { invalid } from "./shared.js";

/** The channel `web.login.*` serve (WhatsApp Web, as in OpenClaw). */
const WEB_LOGIN_CHANNEL = "whatsapp";
/** How long `web.login.start` waits for the first QR code by default (at least 1 s). */
const START_DEFAULT_MS = 30_000;
/** How long `web.login.wait` waits by default (at least 1 s). */
const WAIT_DEFAULT_MS = 120_000;

type LoginDeps = Pick<MethodDeps, "channels" | "config" | "stateDir" | "env" | "logger">;
const LOGIN_USES = ["channels", "config", "stateDir", "env", "logger"] as const;

interface LoginTarget {
  adapter: ChannelAdapter;
  login: ChannelLogin;
  account: LoginAccount & { configured: boolean };
}

/** The channel's login and the account it acts on, or the error to answer. */
async function loginTarget(
  deps: LoginDeps,
  channel: string,
  accountId: string | undefined,
): Promise<LoginTarget | { error: MethodResult }> {
  const adapter = await deps.channels.registry.load(channel);
  if (!adapter) return { error: invalid(`unknown channel ${channel}`) };
  if (!adapter.login) return { error: invalid(`channel ${channel} has no login`) };
  const chosen = resolveLoginAccount({ cfg: deps.config().config, adapter, accountId });
  if (!chosen.ok) return { error: invalid(chosen.error) };
  const log = deps.logger.child({ channel, accountId: chosen.account.accountId });
  return {
    adapter,
    login: adapter.login,
    account: { ...chosen.account, stateDir: deps.stateDir, env: deps.env, log },
  };
}

/** Stops the account's running session before the login opens its own; starts it after. */
function holdHooks(deps: LoginDeps, target: LoginTarget): LoginSessionHooks {
  const channel = target.adapter.id;
  const { accountId } = target.account;
  return {
    beforeSession: async () => {
      await deps.channels.host?.holdAccount(channel, accountId);
    },
    afterSession: async () => {
      const started = await deps.channels.host?.releaseAccount(channel, accountId);
      target.account.log.info({ started: started === true }, "login session closed");
    },
  };
}

/** What to add to a linked message: that the account runs now, or how to make it run. */
function afterLinkNote(target: LoginTarget): string {
  const { accountId } = target.account;
  const channel = target.adapter.id;
  return target.account.configured
    ? `; the gateway started account ${accountId}`
    : `; add channels.${channel} to the config so the gateway runs it`;
}

async function start(call: CallOf<"web.login.start">, deps: LoginDeps) {
  const target = await loginTarget(deps, WEB_LOGIN_CHANNEL, call.params.accountId);
  if ("error" in target) return target.error;
  const progress = await target.login.start({
    ...target.account,
    ...holdHooks(deps, target),
    force: call.params.force === true,
    timeoutMs: Math.max(call.params.timeoutMs ?? START_DEFAULT_MS, 1000),
  });
  return ok(progress);
}

async function wait(call: CallOf<"web.login.wait">, deps: LoginDeps) {
  const target = await loginTarget(deps, WEB_LOGIN_CHANNEL, call.params.accountId);
  if ("error" in target) return target.error;
  const progress = await target.login.wait({
    accountId: target.account.accountId,
    timeoutMs: Math.max(call.params.timeoutMs ?? WAIT_DEFAULT_MS, 1000),
  });
  if (progress.state !== "linked") return ok(progress);
  target.account.log.info({ e164: progress.e164 }, "account linked");
  return ok({ ...progress, message: `${progress.message}${afterLinkNote(target)}` });
}

async function logout(call: CallOf<"channels.logout">, deps: LoginDeps) {
  const channel = call.params.channel.trim().toLowerCase();
  const target = await loginTarget(deps, channel, call.params.accountId);
  if ("error" in target) return target.error;
  const outcome = await target.login.logout({ ...target.account, ...holdHooks(deps, target) });
  if (outcome.state === "refused")
    return fail(gatewayError(ErrorCodes.UNAVAILABLE, outcome.message));
  target.account.log.info({ state: outcome.state, loggedOut: outcome.loggedOut }, "logout");
  return ok({
    channel,
    accountId: target.account.accountId,
    ...outcome,
    cleared: outcome.state === "unlinked",
  });
}

/** The linking method group. */
export const webLoginMethods = [
  defineMethod({
    name: "web.login.start",
    scope: "operator.admin",
    uses: LOGIN_USES,
    handler: start,
  }),
  defineMethod({
    name: "web.login.wait",
    scope: "operator.admin",
    uses: LOGIN_USES,
    handler: wait,
  }),
  defineMethod({
    name: "channels.logout",
    scope: "operator.admin",
    uses: LOGIN_USES,
    handler: logout,
  }),
];
