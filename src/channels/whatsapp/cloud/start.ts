// Starts one WhatsApp Business Cloud API account: resolves its settings (fail closed: no app
// secret, no start), registers its webhook on the gateway's HTTP port, checks the token in the
// background (`GET /{phoneNumberId}`: connected with the number's identity, or lastError saying
// what is wrong while webhooks are still taken) and sends through the Graph API. Typing is the
// API's read receipt with a typing indicator on the peer's newest message (shown up to 25 s).
import {
  type ChannelAccountContext,
  type ChannelAccountRuntime,
  createUpdateGuard,
  type OutboundTarget,
  type ProbeResult,
} from "../../index.js";
import { createGraphClient, type GraphClient } from "./graph-client.js";
import { createRecentMessages, type RecentMessages } from "./recent-messages.js";
import { sendCloudMessage } from "./send.js";
import { type CloudAccountSettings, resolveCloudSettings } from "./settings.js";
import { CLOUD_WEBHOOK_MAX_BODY_BYTES, createCloudWebhookHandler } from "./webhook.js";

/** How long one typing indicator lasts on WhatsApp; it is not sent again for a message sooner. */
const TYPING_REFRESH_MS = 20_000;

async function probe(
  graph: GraphClient,
  settings: CloudAccountSettings,
  now: () => number,
): Promise<ProbeResult> {
  const started = now();
  const result = await graph.call({
    method: "GET",
    path: `${settings.phoneNumberId}?fields=display_phone_number,verified_name`,
  });
  if (!result.ok) return { ok: false, error: result.failure.message };
  const display = result.body.display_phone_number;
  const name = result.body.verified_name;
  return {
    ok: true,
    identity: {
      id: settings.phoneNumberId,
      ...(typeof name === "string" ? { name } : {}),
      ...(typeof display === "string" ? { username: display } : {}),
    },
    latencyMs: Math.max(0, now() - started),
  };
}

function createTyping(params: {
  graph: GraphClient;
  settings: CloudAccountSettings;
  recent: RecentMessages;
  context: ChannelAccountContext;
  now: () => number;
}) {
  const shown = new Map<string, number>();
  return async (target: OutboundTarget): Promise<void> => {
    const messageId = params.recent.lastInbound(target.peer.id);
    if (!messageId) return;
    const last = shown.get(messageId);
    if (last !== undefined && params.now() - last < TYPING_REFRESH_MS) return;
    shown.clear();
    shown.set(messageId, params.now());
    const result = await params.graph.call({
      method: "POST",
      path: `${params.settings.phoneNumberId}/messages`,
      json: {
        messaging_product: "whatsapp",
        status: "read",
        message_id: messageId,
        typing_indicator: { type: "text" },
      },
    });
    if (!result.ok)
      params.context.log.warn(
        { messageId, error: result.failure.message },
        "whatsapp cloud: typing indicator failed",
      );
  };
}

/** Starts one WhatsApp cloud account. */
export async function startCloudAccount(
  context: ChannelAccountContext,
  now: () => number = Date.now,
): Promise<ChannelAccountRuntime> {
  const resolved = resolveCloudSettings({
    config: context.config,
    env: context.env,
    accountId: context.accountId,
  });
  if (!resolved.ok) {
    context.report({ connected: false, lastError: resolved.error, lastErrorAt: now() });
    throw new Error(resolved.error);
  }
  const { settings } = resolved;
  if (!context.registerWebhook)
    throw new Error("whatsapp cloud: this host has no HTTP port to serve the webhook on");
  const graph = createGraphClient(settings);
  const recent = createRecentMessages();
  const guard = createUpdateGuard({
    log: context.log,
    report: context.report,
    submit: context.receive,
    now,
    signal: context.signal,
  });
  const registration = context.registerWebhook({
    path: settings.webhookPath,
    methods: ["GET", "POST"],
    maxBodyBytes: CLOUD_WEBHOOK_MAX_BODY_BYTES,
    handle: createCloudWebhookHandler({ settings, context, guard, graph, recent, now }),
  });
  if (!registration.ok) {
    context.report({ connected: false, lastError: registration.error, lastErrorAt: now() });
    throw new Error(registration.error);
  }
  context.log.info(
    { webhookPath: settings.webhookPath, graphBase: settings.graphBase },
    "whatsapp cloud: webhook registered",
  );
  // The token is checked without holding up the start: webhooks are taken meanwhile.
  void probe(graph, settings, now).then((result) => {
    if (result.ok) context.report({ connected: true, identity: result.identity });
    else {
      context.log.warn({ error: result.error }, "whatsapp cloud: Graph API check failed");
      context.report({ connected: false, lastError: result.error, lastErrorAt: now() });
    }
  });
  return {
    async send(message) {
      const result = await sendCloudMessage({ graph, settings, message, recent });
      if (result.ok) context.report({ lastOutboundAt: now() });
      else context.log.warn({ ...result.failure }, "whatsapp cloud: send failed");
      return result;
    },
    sendTyping: createTyping({ graph, settings, recent, context, now }),
    probe: () => probe(graph, settings, now),
    async stop() {
      registration.unregister();
      context.report({ connected: false });
    },
  };
}
