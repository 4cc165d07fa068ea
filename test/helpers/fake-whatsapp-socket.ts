// A fake WhatsApp Web socket implementing the transport's seam (`WhatsAppSocket`): Baileys cannot
// reach WhatsApp offline, so tests drive the adapter through this. Messages are real
// `proto.WebMessageInfo` objects (built with Baileys' `proto.WebMessageInfo.fromObject`, so a
// timestamp is a Long as on the wire), with Baileys 7's key extensions (`remoteJidAlt`,
// `participantAlt`) added where a test names them. Every call is recorded; a socket opens on the
// next tick unless the test scripts another first event (`nextBehaviour`).
import { EventEmitter } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BufferJSON, initAuthCreds, proto } from "@whiskeysockets/baileys";
import type {
  AnyMessageContent,
  GroupMetadata,
  MiscMessageGenerationOptions,
  WAMessage,
  WAMessageKey,
  WhatsAppSocket,
  WhatsAppSocketEvents,
  WhatsAppSocketFactory,
  WhatsAppSocketParams,
} from "../../src/channels/whatsapp/web/socket-seam.js";

/** One sendMessage call. */
export interface FakeSend {
  jid: string;
  content: AnyMessageContent;
  options?: MiscMessageGenerationOptions;
  id: string;
}

/** What a new socket does first: open (default), close with a code, or show a QR. */
export type FakeSocketBehaviour = { open: true } | { close: number } | { qr: string };

/** One fake socket. */
export class FakeWhatsAppSocket implements WhatsAppSocket {
  readonly emitter = new EventEmitter();
  readonly sends: FakeSend[] = [];
  readonly reads: WAMessageKey[][] = [];
  readonly presence: Array<{ type: string; jid?: string }> = [];
  readonly groupQueries: string[] = [];
  ended = false;
  loggedOut = false;
  /** Thrown by the next sendMessage, when set. */
  failNextSend: Error | undefined;
  private nextId = 0;

  readonly ev: WhatsAppSocket["ev"] = {
    on: (event, listener) => {
      this.emitter.on(event, listener as (arg: unknown) => void);
    },
    off: (event, listener) => {
      this.emitter.off(event, listener as (arg: unknown) => void);
    },
  };

  constructor(
    readonly params: WhatsAppSocketParams,
    private readonly world: FakeWhatsApp,
  ) {}

  get user() {
    const me = this.params.auth.creds.me;
    return me ? { id: me.id, lid: me.lid, name: me.name } : undefined;
  }

  emit<E extends keyof WhatsAppSocketEvents>(event: E, arg: WhatsAppSocketEvents[E]): void {
    this.emitter.emit(event, arg);
  }

  /** Emits `connection: open`. */
  open(): void {
    this.emit("connection.update", { connection: "open" });
  }

  /** Emits a close with a Baileys status code (a Boom-shaped error). */
  close(code: number): void {
    const error = Object.assign(new Error(`closed ${code}`), { output: { statusCode: code } });
    this.emit("connection.update", {
      connection: "close",
      lastDisconnect: { error, date: new Date() },
    });
  }

  /** Emits `messages.upsert` of type notify. */
  deliver(...messages: WAMessage[]): void {
    this.emit("messages.upsert", { messages, type: "notify" });
  }

  async sendMessage(
    jid: string,
    content: AnyMessageContent,
    options?: MiscMessageGenerationOptions,
  ) {
    if (this.failNextSend) {
      const error = this.failNextSend;
      this.failNextSend = undefined;
      throw error;
    }
    const id = `SENT${++this.nextId}${this.world.sockets.indexOf(this)}`;
    const send: FakeSend = { jid, content, id, ...(options ? { options } : {}) };
    this.sends.push(send);
    this.world.notify();
    return { key: { remoteJid: jid, fromMe: true, id } } as WAMessage;
  }

  async readMessages(keys: WAMessageKey[]) {
    this.reads.push(keys);
    this.world.notify();
  }

  async sendPresenceUpdate(type: string, jid?: string) {
    this.presence.push({ type, ...(jid ? { jid } : {}) });
    this.world.notify();
  }

  async groupMetadata(jid: string): Promise<GroupMetadata> {
    this.groupQueries.push(jid);
    const metadata = this.world.groups.get(jid);
    if (!metadata) throw new Error(`item-not-found ${jid}`);
    return metadata;
  }

  async downloadMedia(message: WAMessage): Promise<Buffer> {
    const bytes = this.world.media.get(message.key.id ?? "");
    if (!bytes) throw new Error("media not found");
    return bytes;
  }

  end(_error: Error | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.world.notify();
  }

  async logout(): Promise<void> {
    this.loggedOut = true;
    this.close(401);
  }
}

/** The fake WhatsApp: a socket factory plus what every socket did. */
export class FakeWhatsApp {
  readonly sockets: FakeWhatsAppSocket[] = [];
  readonly groups = new Map<string, GroupMetadata>();
  /** Media bytes by message id (downloadMedia). */
  readonly media = new Map<string, Buffer>();
  /** First events of the next sockets, in order; afterwards sockets open. */
  readonly nextBehaviour: FakeSocketBehaviour[] = [];
  private waiters = new Set<() => void>();

  readonly factory: WhatsAppSocketFactory = async (params) => {
    const socket = new FakeWhatsAppSocket(params, this);
    this.sockets.push(socket);
    const behaviour = this.nextBehaviour.shift() ?? { open: true };
    setTimeout(() => {
      if ("open" in behaviour) socket.open();
      else if ("close" in behaviour) socket.close(behaviour.close);
      else socket.emit("connection.update", { qr: behaviour.qr });
    }, 0);
    this.notify();
    return socket;
  };

  notify(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /** Sockets of one account. */
  socketsOf(accountId: string): FakeWhatsAppSocket[] {
    return this.sockets.filter((s) => s.params.accountId === accountId);
  }

  /** Every message sent through the sockets of an account. */
  sendsOf(accountId: string): FakeSend[] {
    return this.socketsOf(accountId).flatMap((s) => s.sends);
  }

  /** The latest socket of an account. */
  latest(accountId: string): FakeWhatsAppSocket | undefined {
    return this.socketsOf(accountId).at(-1);
  }

  /** Resolves once `check` holds (checked on every recorded call; 10 s bound). */
  async waitUntil<T>(check: () => T | undefined | false, what: string): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`fake WhatsApp: timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, 20);
        this.waiters.add(done);
      });
    }
  }
}

/** Writes linked credentials for `number` (`+1555…`) into `authDir`, as `channels login` leaves them. */
export function seedLinkedCreds(authDir: string, number: string, name = "Me"): void {
  mkdirSync(authDir, { recursive: true, mode: 0o700 });
  const digits = number.replace(/^\+/, "");
  const creds = {
    ...initAuthCreds(),
    me: { id: `${digits}:7@s.whatsapp.net`, lid: `9${digits}:7@lid`, name },
  };
  writeFileSync(join(authDir, "creds.json"), JSON.stringify(creds, BufferJSON.replacer), {
    mode: 0o600,
  });
}

let counter = 0;

/** Fields of {@link waMessage}. */
export interface WaMessageFields {
  /** Chat JID (`1555…@s.whatsapp.net`, `…@g.us`, `…@lid`, `status@broadcast`). */
  chat: string;
  /** Group participant JID. */
  participant?: string;
  participantAlt?: string;
  remoteJidAlt?: string;
  fromMe?: boolean;
  id?: string;
  pushName?: string;
  /** The message content (`proto.IMessage` fields). */
  message: Record<string, unknown>;
  timestamp?: number;
}

/** A real `proto.WebMessageInfo` (plus Baileys 7's key extensions). */
export function waMessage(fields: WaMessageFields): WAMessage {
  const id = fields.id ?? `3EB0${(++counter).toString(16).padStart(8, "0").toUpperCase()}`;
  const info = proto.WebMessageInfo.fromObject({
    key: {
      remoteJid: fields.chat,
      fromMe: fields.fromMe ?? false,
      id,
      ...(fields.participant ? { participant: fields.participant } : {}),
    },
    message: fields.message,
    messageTimestamp: fields.timestamp ?? 1_760_000_000 + counter,
    ...(fields.pushName ? { pushName: fields.pushName } : {}),
  }) as WAMessage;
  if (fields.participantAlt) info.key.participantAlt = fields.participantAlt;
  if (fields.remoteJidAlt) info.key.remoteJidAlt = fields.remoteJidAlt;
  return info;
}

/** A text DM from `number` (`+1555…`). */
export function dmText(
  number: string,
  text: string,
  extra: Partial<WaMessageFields> = {},
): WAMessage {
  return waMessage({
    chat: `${number.replace(/^\+/, "")}@s.whatsapp.net`,
    pushName: "Alice",
    message: { conversation: text },
    ...extra,
  });
}
