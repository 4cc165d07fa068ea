// The one seam between the WhatsApp Web transport and Baileys: the part of Baileys' socket the
// adapter uses, and the factory that opens one. `socket.ts` implements it over `makeWASocket`; tests
// implement it with a fake fed real `proto.IWebMessageInfo` shapes. Only types come from Baileys
// here (erased at build), so importing this module never loads Baileys.
import type {
  AnyMessageContent,
  AuthenticationCreds,
  AuthenticationState,
  ConnectionState,
  Contact,
  GroupMetadata,
  MiscMessageGenerationOptions,
  WAMessage,
  WAMessageKey,
  WAPresence,
} from "@whiskeysockets/baileys";
import type { Logger } from "../../index.js";

export type {
  AnyMessageContent,
  AuthenticationCreds,
  AuthenticationState,
  ConnectionState,
  Contact,
  GroupMetadata,
  MiscMessageGenerationOptions,
  WAMessage,
  WAMessageKey,
  WAPresence,
};

/** The content of a message (`proto.IMessage`). */
export type WAMessageContent = NonNullable<WAMessage["message"]>;

/** The socket events the adapter listens to, with Baileys' payloads. */
export interface WhatsAppSocketEvents {
  "connection.update": Partial<ConnectionState>;
  "creds.update": Partial<AuthenticationCreds>;
  "messages.upsert": { messages: WAMessage[]; type: "notify" | "append"; requestId?: string };
}

/** The event name of {@link WhatsAppSocketEvents}. */
export type WhatsAppSocketEventName = keyof WhatsAppSocketEvents;

/** Baileys' `ev` emitter, narrowed to the events above. */
export interface WhatsAppSocketEmitter {
  on<E extends WhatsAppSocketEventName>(
    event: E,
    listener: (arg: WhatsAppSocketEvents[E]) => void,
  ): void;
  off<E extends WhatsAppSocketEventName>(
    event: E,
    listener: (arg: WhatsAppSocketEvents[E]) => void,
  ): void;
}

/** The part of a Baileys socket the adapter (and `channels login`) uses. */
export interface WhatsAppSocket {
  ev: WhatsAppSocketEmitter;
  /** Who this session is (`id`: `<number>:<device>@s.whatsapp.net`, `lid`), once linked. */
  readonly user: Contact | undefined;
  sendMessage(
    jid: string,
    content: AnyMessageContent,
    options?: MiscMessageGenerationOptions,
  ): Promise<WAMessage | undefined>;
  readMessages(keys: WAMessageKey[]): Promise<void>;
  sendPresenceUpdate(type: WAPresence, toJid?: string): Promise<void>;
  groupMetadata(jid: string): Promise<GroupMetadata>;
  /** The decrypted bytes of a media message (Baileys' `downloadMediaMessage`). */
  downloadMedia(message: WAMessage): Promise<Buffer>;
  /** Closes the connection (a `connection.update` close follows). */
  end(error: Error | undefined): void;
  /** Unlinks this device from the phone, then closes. */
  logout(msg?: string): Promise<void>;
}

/** What opening one socket needs: the account's auth state and a logger for Baileys. */
export interface WhatsAppSocketParams {
  auth: AuthenticationState;
  log: Logger;
  accountId: string;
}

/** Opens one socket (the real one over `makeWASocket`, or a fake). */
export type WhatsAppSocketFactory = (params: WhatsAppSocketParams) => Promise<WhatsAppSocket>;

/** Baileys' `DisconnectReason` codes the transport acts on (the same numbers; kept here so the
 *  lifecycle decides without loading Baileys). */
export const WA_DISCONNECT = {
  connectionClosed: 428,
  connectionLost: 408,
  connectionReplaced: 440,
  loggedOut: 401,
  badSession: 500,
  restartRequired: 515,
  multideviceMismatch: 411,
  forbidden: 403,
  unavailableService: 503,
} as const;

/** The status code of a `connection.update` close (Baileys puts a Boom with `output.statusCode` in
 *  `lastDisconnect.error`); undefined when it carries none. */
export function disconnectCode(update: Partial<ConnectionState>): number | undefined {
  const error = update.lastDisconnect?.error as
    | { output?: { statusCode?: unknown }; statusCode?: unknown }
    | undefined;
  const code = error?.output?.statusCode ?? error?.statusCode;
  return typeof code === "number" ? code : undefined;
}
