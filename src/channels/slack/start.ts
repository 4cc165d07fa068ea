// Starts one Slack account on Bolt (imported here, when an account starts): `auth.test` first (who
// the bot is; a refused bot token fails the start naming it), then Bolt's `App` over the account's
// Web API base, fed by Socket Mode (`socket.ts`) or by the account's webhook on the gateway's HTTP
// port (`webhook.ts`, http mode). Sends go through the same Web API client with Bolt's own retries
// off (the host's delivery queue retries, by the failure's kind).
import type { ChannelAccountContext, ChannelAccountRuntime } from "../index.js";
import { createUpdateGuard } from "../index.js";
import { type BoltLogger, boltLogger } from "./bolt-logger.js";
import { createSlackConversations } from "./conversations.js";
import { type BoltAppSeam, createSlackEvents } from "./events.js";
import { probeSlack, slackAuthTest, statusIdentity } from "./probe.js";
import { type SlackDmChannels, type SlackWebApi, sendSlackMessage } from "./send.js";
import { resolveSlackSettings, type SlackAccountSettings } from "./settings.js";
import { openSocketMode } from "./socket.js";
import { readSlackThreadHistory } from "./thread-history.js";
import { createSlackWebhookHandler, SLACK_WEBHOOK_MAX_BODY_BYTES } from "./webhook.js";

/** The Web API client options of an account: its base URL, no client-side retries or waits. */
export function slackClientOptions(settings: SlackAccountSettings, logger: BoltLogger) {
  return {
    slackApiUrl: settings.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: settings.timeoutMs,
    logger,
  };
}

function fail(context: ChannelAccountContext, error: string, now: () => number): never {
  context.report({ connected: false, lastError: error, lastErrorAt: now() });
  throw new Error(error);
}

/** Starts one Slack account. */
export async function startSlackAccount(
  context: ChannelAccountContext,
  now: () => number = Date.now,
): Promise<ChannelAccountRuntime> {
  const resolved = resolveSlackSettings({
    config: context.config,
    env: context.env,
    accountId: context.accountId,
  });
  if (!resolved.ok) fail(context, resolved.error, now);
  const { settings } = resolved;
  if (settings.mode === "http" && !context.registerWebhook)
    fail(context, "slack http mode: this host has no HTTP port to serve the webhook on", now);
  const bolt = await import("@slack/bolt");
  const logger = boltLogger(context.log);
  const clientOptions = slackClientOptions(settings, logger);
  const client = new bolt.webApi.WebClient(
    settings.botToken,
    clientOptions as ConstructorParameters<typeof bolt.webApi.WebClient>[1],
  );
  const api = client as unknown as SlackWebApi;
  const auth = await slackAuthTest(api);
  if (!auth.ok) fail(context, auth.error, now);
  const self = {
    userId: auth.identity.userId,
    ...(auth.identity.botId ? { botId: auth.identity.botId } : {}),
  };
  const dmChannels: SlackDmChannels = new Map();
  const guard = createUpdateGuard({
    log: context.log,
    report: context.report,
    submit: context.receive,
    now,
    signal: context.signal,
  });
  const events = createSlackEvents({
    context,
    settings,
    self,
    conversations: createSlackConversations({ api, log: context.log }),
    dmChannels,
    guard,
  });
  const socket =
    settings.mode === "socket"
      ? openSocketMode({
          SocketModeReceiver: bolt.SocketModeReceiver,
          settings,
          clientOptions,
          logger,
          events,
          context,
        })
      : undefined;
  const app = new bolt.App({
    token: settings.botToken,
    botId: self.botId,
    botUserId: self.userId,
    client,
    receiver: socket?.receiver ?? {
      init: () => {},
      start: async () => {},
      stop: async () => {},
    },
    logger,
    ...(socket ? { socketMode: true } : {}),
  } as ConstructorParameters<typeof bolt.App>[0]);
  events.listen(app as unknown as BoltAppSeam);
  const identity = statusIdentity(auth.identity);
  let unregister = () => {};
  if (socket) {
    const started = await socket.start();
    if (!started.ok) fail(context, started.error, now);
  } else {
    const registration = context.registerWebhook!({
      path: settings.webhookPath,
      methods: ["POST"],
      maxBodyBytes: SLACK_WEBHOOK_MAX_BODY_BYTES,
      handle: createSlackWebhookHandler({ context, settings, events, now }),
    });
    if (!registration.ok) fail(context, registration.error, now);
    unregister = registration.unregister;
  }
  context.report({ connected: true, identity });
  context.log.info(
    {
      mode: settings.mode,
      apiUrl: settings.apiUrl,
      bot: identity.username,
      team: auth.identity.team,
    },
    settings.mode === "socket"
      ? "slack: connected (socket mode)"
      : `slack: webhook registered at ${settings.webhookPath}`,
  );
  return {
    // Http mode has no connection to lose: its webhook serves until stop().
    ...(socket ? { ended: socket.ended } : {}),
    async send(message) {
      const result = await sendSlackMessage({ api, settings, message, dmChannels });
      if (result.ok) context.report({ lastOutboundAt: now() });
      else context.log.warn({ ...result.failure }, "slack: send failed");
      return result;
    },
    probe: () => probeSlack(api, now),
    threadHistory: (query) =>
      readSlackThreadHistory({ api, self, dmChannels, log: context.log, query }),
    async stop() {
      unregister();
      if (socket) await socket.stop();
      context.report({ connected: false });
    },
  };
}
