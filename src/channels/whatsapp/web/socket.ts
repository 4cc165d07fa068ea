// The real WhatsApp Web socket: Baileys' `makeWASocket` behind the `WhatsAppSocket` seam. The only
// module of the transport that loads Baileys' socket code; the lifecycle gets it through the factory.
// Baileys logs through the account's logger (its chatty info level demoted to debug), never prints a
// QR itself, names itself "Pincer" on the phone's linked-devices list and does not mark the user
// online on connect (the phone keeps its notifications).
import makeWASocket, {
  Browsers,
  downloadMediaMessage,
  makeCacheableSignalKeyStore,
} from "@whiskeysockets/baileys";
import type { Logger } from "../../index.js";
import type { WhatsAppSocket, WhatsAppSocketFactory, WhatsAppSocketParams } from "./socket-seam.js";

/** Baileys' logger shape (pino's subset it calls). */
type BaileysLogger = NonNullable<Parameters<typeof makeWASocket>[0]["logger"]>;

/** The name WhatsApp shows for a Pincer session under "Linked devices". */
export const WHATSAPP_BROWSER_NAME = "Pincer";

/** Baileys' logger over ours: trace/debug/info go to debug (Baileys logs every frame at info),
 *  warn and error stay. */
export function baileysLogger(log: Logger): BaileysLogger {
  const write =
    (method: "debug" | "warn" | "error") =>
    (obj: unknown, msg?: string): void => {
      if (typeof obj === "string") log[method](obj);
      else if (obj && typeof obj === "object")
        log[method](obj as Record<string, unknown>, msg ?? "baileys");
      else log[method]({ value: obj }, msg ?? "baileys");
    };
  return {
    level: "warn",
    child: (bindings) => baileysLogger(log.child(bindings)),
    trace: write("debug"),
    debug: write("debug"),
    info: write("debug"),
    warn: write("warn"),
    error: write("error"),
  };
}

/** Opens a real Baileys socket for one account. */
export const createBaileysSocket: WhatsAppSocketFactory = async (
  params: WhatsAppSocketParams,
): Promise<WhatsAppSocket> => {
  const logger = baileysLogger(params.log.child({ module: "baileys" }));
  const socket = makeWASocket({
    auth: { creds: params.auth.creds, keys: makeCacheableSignalKeyStore(params.auth.keys, logger) },
    logger,
    printQRInTerminal: false,
    browser: Browsers.ubuntu(WHATSAPP_BROWSER_NAME),
    markOnlineOnConnect: false,
    syncFullHistory: false,
  });
  return {
    ev: socket.ev as WhatsAppSocket["ev"],
    get user() {
      return socket.user;
    },
    sendMessage: (jid, content, options) => socket.sendMessage(jid, content, options),
    readMessages: (keys) => socket.readMessages(keys),
    sendPresenceUpdate: (type, toJid) => socket.sendPresenceUpdate(type, toJid),
    groupMetadata: (jid) => socket.groupMetadata(jid),
    downloadMedia: (message) =>
      downloadMediaMessage(
        message,
        "buffer",
        {},
        { logger, reuploadRequest: socket.updateMediaMessage },
      ),
    end: (error) => {
      socket.end(error).catch((err: unknown) => {
        params.log.warn({ error: (err as Error).message }, "whatsapp: closing the socket failed");
      });
    },
    logout: (msg) => socket.logout(msg),
  };
};
