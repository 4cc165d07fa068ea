// Starts one WhatsApp Web account: its settings, its session (`session.ts`: lock, auth state, one
// socket, terminal states), the receiver of each socket's messages, and the runtime the host sends
// through. The socket factory is the real Baileys one unless the adapter was built with another
// (`WhatsAppWebOptions.socketFactory`: a fake socket, a proxy, a recorder); Baileys' socket code is
// loaded only when an account opens a real socket.
import type {
  ChannelAccountContext,
  ChannelAccountRuntime,
  OutboundTarget,
  ProbeResult,
} from "../../index.js";
import { peerIdToJid } from "../peer-id.js";
import { createGroupMetadataCache } from "./group-metadata.js";
import { createRecentMessages } from "./message-cache.js";
import { createWebReceiver, DEFAULT_RECEIVE_RETRY_DELAY_MS } from "./receiver.js";
import { sendWebMessage, WHATSAPP_WEB_TEXT_LIMIT } from "./send.js";
import { createWebSession, DEFAULT_LINK_POLL_MS } from "./session.js";
import { resolveWebSettings, selfChatEnabled } from "./settings.js";
import type { WAMessage, WhatsAppSocket, WhatsAppSocketFactory } from "./socket-seam.js";

/** Tunables of the web transport; the defaults suit production. */
export interface WhatsAppWebOptions {
  /** Opens a socket (default: Baileys' `makeWASocket`, `socket.ts`). */
  socketFactory?: WhatsAppSocketFactory;
  /** How often an unlinked or logged-out account looks for new credentials (ms). */
  linkPollMs?: number;
  /** Pause before a message whose `receive` rejected is handed on again (ms). */
  receiveRetryDelayMs?: number;
  /** Clock for status timestamps. */
  now?: () => number;
}

const realFactory: WhatsAppSocketFactory = async (params) =>
  (await import("./socket.js")).createBaileysSocket(params);

/** Starts one WhatsApp Web account. */
export async function startWebAccount(
  context: ChannelAccountContext,
  options: WhatsAppWebOptions = {},
): Promise<ChannelAccountRuntime> {
  const now = options.now ?? Date.now;
  const resolved = resolveWebSettings({
    config: context.config,
    stateDir: context.stateDir,
    accountId: context.accountId,
    env: context.env,
  });
  if (!resolved.ok) {
    context.report({ connected: false, lastError: resolved.error, lastErrorAt: now() });
    throw new Error(`whatsapp: ${resolved.error}`);
  }
  const { settings } = resolved;
  const inbound = createRecentMessages<WAMessage>();
  const sent = createRecentMessages<true>();
  let currentSocket: WhatsAppSocket | undefined;
  const groups = createGroupMetadataCache({ socket: () => currentSocket, log: context.log, now });
  const session = createWebSession({
    context,
    settings,
    factory: options.socketFactory ?? realFactory,
    linkPollMs: options.linkPollMs ?? DEFAULT_LINK_POLL_MS,
    now,
    onSocket: (socket) => {
      currentSocket = socket;
      let receiver: ReturnType<typeof createWebReceiver> | undefined;
      const onUpsert = (
        upsert: Parameters<ReturnType<typeof createWebReceiver>["onUpsert"]>[0],
      ) => {
        const self = session.self();
        if (!self) {
          context.log.warn(
            { accountId: context.accountId },
            "whatsapp: message before identity; skipped",
          );
          return;
        }
        receiver ??= createWebReceiver({
          context,
          socket,
          self,
          selfChat: selfChatEnabled(settings, self.e164),
          settings,
          inbound,
          sent,
          groups,
          signal: context.signal,
          now,
          receiveRetryDelayMs: options.receiveRetryDelayMs ?? DEFAULT_RECEIVE_RETRY_DELAY_MS,
        });
        receiver.onUpsert(upsert);
      };
      socket.ev.on("messages.upsert", onUpsert);
      return () => socket.ev.off("messages.upsert", onUpsert);
    },
  });
  context.log.info(
    { accountId: context.accountId, authDir: settings.authDir },
    "whatsapp: starting (web)",
  );
  await session.start();

  const presence = async (target: OutboundTarget, state: "composing" | "paused") => {
    const current = session.current();
    const jid = peerIdToJid(target.peer.id);
    if ("unavailable" in current || !jid.ok) return;
    await current.socket.sendPresenceUpdate(state, jid.jid).catch((err: unknown) => {
      context.log.warn(
        { to: target.peer.id, error: (err as Error).message },
        "whatsapp: presence failed",
      );
    });
  };

  return {
    ended: session.ended,
    async send(message) {
      const current = session.current();
      const result = await sendWebMessage({
        socket: "unavailable" in current ? current : current.socket,
        message,
        quoted: (id) => inbound.get(id),
        onSent: (id) => sent.remember(id, true),
        textLimit: Math.min(WHATSAPP_WEB_TEXT_LIMIT, settings.textChunkLimit ?? Infinity),
        mediaMaxBytes: settings.mediaMaxBytes,
      });
      if (result.ok) {
        context.report({ lastOutboundAt: now() });
        await presence(message.target, "paused");
      } else {
        context.log.warn(
          { accountId: context.accountId, ...result.failure },
          "whatsapp: send failed",
        );
      }
      return result;
    },
    sendTyping: (target) => presence(target, "composing"),
    async probe(): Promise<ProbeResult> {
      const current = session.current();
      if ("unavailable" in current) return { ok: false, error: current.unavailable.message };
      const { self } = current;
      return {
        ok: true,
        identity: { id: self.e164, ...(self.name ? { name: self.name } : {}) },
        latencyMs: 0,
      };
    },
    async stop() {
      await session.stop();
      context.report({ connected: false });
    },
  };
}
