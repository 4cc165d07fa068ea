// The BlueBubbles channel adapter: iMessage through a BlueBubbles server on a Mac. Inbound by the
// server's webhook on the gateway's HTTP port (password-checked), outbound by its REST API (text,
// replies, attachments), typing by `POST chat/<guid>/typing`, the probe by `server/info`. DMs are
// keyed by the sender's handle (E.164 or email), group chats by their chat GUID.
import {
  type ChannelAccountContext,
  type ChannelAccountRuntime,
  type ChannelAdapter,
  createUpdateGuard,
  type OutboundTarget,
  type ProbeResult,
} from "../index.js";
import { type BlueBubblesClient, createBlueBubblesClient } from "./client.js";
import { sendBlueBubblesMessage } from "./send.js";
import {
  type BlueBubblesSettings,
  listBlueBubblesAccounts,
  resolveBlueBubblesSettings,
} from "./settings.js";
import { BLUEBUBBLES_WEBHOOK_MAX_BODY_BYTES, createBlueBubblesWebhookHandler } from "./webhook.js";

/** Longest text of one message (OpenClaw's default chunk limit). */
export const BLUEBUBBLES_TEXT_LIMIT = 4000;
/** Chats remembered per account (peer → chat GUID). */
const CHAT_LIMIT = 5_000;

async function probe(
  client: BlueBubblesClient,
  settings: BlueBubblesSettings,
  now: () => number,
): Promise<ProbeResult> {
  const started = now();
  const result = await client.call({ method: "GET", path: "server/info" });
  if (!result.ok) return { ok: false, error: result.failure.message };
  const info = (result.data ?? {}) as Record<string, unknown>;
  const version = typeof info.server_version === "string" ? info.server_version : undefined;
  const name = typeof info.detected_imessage === "string" ? info.detected_imessage : undefined;
  return {
    ok: true,
    identity: {
      id: name ?? settings.serverUrl,
      name: version ? `BlueBubbles ${version}` : "BlueBubbles",
      ...(name ? { username: name } : {}),
    },
    latencyMs: Math.max(0, now() - started),
  };
}

/** The chat GUID of a target: the one its messages came from, else a DM chat by handle. */
function chatOf(chats: Map<string, string>, target: OutboundTarget): string {
  const known = chats.get(target.peer.id);
  if (known) return known;
  if (target.peer.kind === "group" || target.peer.id.includes(";")) return target.peer.id;
  return `iMessage;-;${target.peer.id}`;
}

async function startAccount(
  context: ChannelAccountContext,
  now: () => number,
): Promise<ChannelAccountRuntime> {
  const resolved = resolveBlueBubblesSettings({
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
    throw new Error("bluebubbles: this host has no HTTP port to serve the webhook on");
  const client = createBlueBubblesClient(settings);
  const chats = new Map<string, string>();
  const guard = createUpdateGuard({
    log: context.log,
    report: context.report,
    submit: context.receive,
    now,
    signal: context.signal,
  });
  const registration = context.registerWebhook({
    path: settings.webhookPath,
    methods: ["POST"],
    maxBodyBytes: BLUEBUBBLES_WEBHOOK_MAX_BODY_BYTES,
    handle: createBlueBubblesWebhookHandler({
      settings,
      context,
      guard,
      client,
      now,
      onChat: (inbound, chatGuid) => {
        chats.delete(inbound.peer.id);
        chats.set(inbound.peer.id, chatGuid);
        if (chats.size > CHAT_LIMIT) {
          const oldest = chats.keys().next().value;
          if (oldest !== undefined) chats.delete(oldest);
        }
      },
    }),
  });
  if (!registration.ok) {
    context.report({ connected: false, lastError: registration.error, lastErrorAt: now() });
    throw new Error(registration.error);
  }
  context.log.info({ webhookPath: settings.webhookPath }, "bluebubbles: webhook registered");
  // The server is checked without holding up the start: webhooks are taken meanwhile.
  void probe(client, settings, now).then((result) => {
    if (result.ok) context.report({ connected: true, identity: result.identity });
    else {
      context.log.warn({ error: result.error }, "bluebubbles: server check failed");
      context.report({ connected: false, lastError: result.error, lastErrorAt: now() });
    }
  });
  return {
    async send(message) {
      const result = await sendBlueBubblesMessage({
        client,
        message,
        chatGuid: chatOf(chats, message.target),
        mediaMaxBytes: settings.mediaMaxBytes,
      });
      if (result.ok) context.report({ lastOutboundAt: now() });
      else context.log.warn({ ...result.failure }, "bluebubbles: send failed");
      return result;
    },
    async sendTyping(target) {
      const guid = encodeURIComponent(chatOf(chats, target));
      const result = await client.call({ method: "POST", path: `chat/${guid}/typing` });
      if (!result.ok)
        context.log.debug({ error: result.failure.message }, "bluebubbles: typing not sent");
    },
    probe: () => probe(client, settings, now),
    async stop() {
      registration.unregister();
      context.report({ connected: false });
    },
  };
}

/** Builds the BlueBubbles adapter (one server per account). */
export function createBlueBubblesAdapter(options: { now?: () => number } = {}): ChannelAdapter {
  const now = options.now ?? Date.now;
  return {
    id: "bluebubbles",
    label: "BlueBubbles (iMessage)",
    capabilities: {
      maxTextLength: BLUEBUBBLES_TEXT_LIMIT,
      markdown: "plain",
      typing: true,
      threads: false,
      media: true,
      nativeMentions: false,
      edits: false,
    },
    listAccounts: listBlueBubblesAccounts,
    validateAccount(config, env) {
      const result = resolveBlueBubblesSettings({ config, env });
      return result.ok ? undefined : result.error;
    },
    start: (context) => startAccount(context, now),
  };
}
