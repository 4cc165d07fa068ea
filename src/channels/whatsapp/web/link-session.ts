// A login's socket over the transport's one Baileys seam: the account's auth state from its auth
// dir (saved on every `creds.update`, so the restart after the scan finds the new creds), the
// socket from a `WhatsAppSocketFactory` (the real one over makeWASocket, or a test's fake), and its
// `connection.update` events narrowed to what linking needs. Loaded only when a login opens one.
import type { Logger } from "../../index.js";
import type { LinkSession, LinkUpdate, OpenLinkSession } from "./login-flow.js";
import { type ConnectionState, disconnectCode, type WhatsAppSocketFactory } from "./socket-seam.js";

function toLinkUpdate(update: Partial<ConnectionState>): LinkUpdate {
  const status = disconnectCode(update);
  const message = update.lastDisconnect?.error?.message;
  return {
    ...(update.qr !== undefined ? { qr: update.qr } : {}),
    ...(update.connection ? { connection: update.connection } : {}),
    ...(status !== undefined ? { closeStatus: status } : {}),
    ...(message ? { closeMessage: message } : {}),
  };
}

/** Opens link sessions through `createSocket` (default: the real Baileys socket, loaded lazily). */
export function linkSessionOpener(createSocket?: WhatsAppSocketFactory): OpenLinkSession {
  return async (params: { authDir: string; accountId: string; log: Logger }) => {
    const { openWhatsAppAuthStore } = await import("./auth-state.js");
    const factory = createSocket ?? (await import("./socket.js")).createBaileysSocket;
    const store = await openWhatsAppAuthStore(params.authDir);
    const socket = await factory({
      auth: store.state,
      log: params.log,
      accountId: params.accountId,
    });
    const saveCreds = () => {
      store.saveCreds().catch((err: unknown) => {
        params.log.error(
          { err: String(err), authDir: params.authDir },
          "whatsapp login: saving the creds failed",
        );
      });
    };
    const listeners: Array<(update: Partial<ConnectionState>) => void> = [];
    socket.ev.on("creds.update", saveCreds);
    let closed = false;
    const session: LinkSession = {
      onUpdate(listener) {
        const forward = (update: Partial<ConnectionState>) => listener(toLinkUpdate(update));
        listeners.push(forward);
        socket.ev.on("connection.update", forward);
      },
      selfJid: () => socket.user?.id,
      logout: () => socket.logout(),
      async close() {
        if (closed) return;
        closed = true;
        for (const forward of listeners) socket.ev.off("connection.update", forward);
        socket.end(undefined);
        // The creds saved last (the pairing's) must be on disk before the next socket reads them.
        await store.flush();
        socket.ev.off("creds.update", saveCreds);
      },
    };
    return session;
  };
}
