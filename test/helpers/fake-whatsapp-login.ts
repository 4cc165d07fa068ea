// A fake WhatsApp Web for linking: a `WhatsAppSocketFactory` whose sockets emit what Baileys emits
// while linking (a `qr` in `connection.update`, rotated; after the scan `creds.update` with `me`
// and a close with 515 restartRequired; on the reopened socket `connection: open`), plus closes
// with any status and `logout()`. Sockets are handed to the test in the order they open, and each
// gets the real auth state the transport loaded from the auth dir (so saved creds are on disk).
import { EventEmitter } from "node:events";
import type {
  AuthenticationState,
  ConnectionState,
  WhatsAppSocket,
  WhatsAppSocketEvents,
  WhatsAppSocketFactory,
  WhatsAppSocketParams,
} from "../../src/channels/whatsapp/web/socket-seam.js";

/** A Boom-shaped close error, as Baileys puts it in `lastDisconnect.error`. */
function closeError(status: number, message: string): Error {
  return Object.assign(new Error(message), { output: { statusCode: status } });
}

/** One fake socket, driven by the test. */
export class FakeLinkSocket {
  readonly emitter = new EventEmitter();
  readonly auth: AuthenticationState;
  user: { id: string } | undefined;
  ended = false;
  loggedOut = false;

  constructor(params: WhatsAppSocketParams) {
    this.auth = params.auth;
    const me = params.auth.creds.me;
    this.user = me?.id ? { id: me.id } : undefined;
  }

  private update(update: Partial<ConnectionState>): void {
    this.emitter.emit("connection.update", update);
  }

  /** Whether the auth state it opened with already carries a linked identity. */
  get hasCreds(): boolean {
    return typeof this.auth.creds.me?.id === "string";
  }

  /** WhatsApp issues (or rotates) the QR code. */
  qr(text: string): void {
    this.update({ qr: text });
  }

  /** The phone scanned the QR: creds gain `me`, then WhatsApp asks for a restart (515). */
  scanned(jid: string): void {
    this.auth.creds.me = { id: jid, name: "Phone" };
    this.emitter.emit("creds.update", { me: this.auth.creds.me });
    this.close(515, "Stream Errored (restart required)");
  }

  /** The session is open (a reopened socket with saved creds). */
  open(): void {
    if (!this.user && this.auth.creds.me) this.user = { id: this.auth.creds.me.id };
    this.update({ connection: "open" });
  }

  /** WhatsApp closes the connection with a status. */
  close(status: number, message = "closed"): void {
    this.update({
      connection: "close",
      lastDisconnect: { error: closeError(status, message), date: new Date() },
    });
  }

  /** The seam over this fake. */
  socket(): WhatsAppSocket {
    const self = this;
    const unused = async (): Promise<never> => {
      throw new Error("not used while linking");
    };
    return {
      ev: {
        on: <E extends keyof WhatsAppSocketEvents>(
          event: E,
          listener: (arg: WhatsAppSocketEvents[E]) => void,
        ) => {
          this.emitter.on(event, listener);
        },
        off: <E extends keyof WhatsAppSocketEvents>(
          event: E,
          listener: (arg: WhatsAppSocketEvents[E]) => void,
        ) => {
          this.emitter.off(event, listener);
        },
      },
      get user() {
        return self.user;
      },
      sendMessage: unused,
      readMessages: unused,
      sendPresenceUpdate: unused,
      groupMetadata: unused,
      downloadMedia: unused,
      end: () => {
        this.ended = true;
      },
      logout: async () => {
        this.loggedOut = true;
        this.close(401, "Intentional Logout");
      },
    };
  }
}

/** A factory whose sockets the test takes one by one, optionally answering each as it opens. */
export interface FakeWhatsAppLogin {
  factory: WhatsAppSocketFactory;
  sockets: FakeLinkSocket[];
  /** The `n`-th socket opened (0-based), waiting for it to open. */
  socket(n: number): Promise<FakeLinkSocket>;
}

/** Creates the fake; `onOpen` runs for every socket right after it opened (a script). */
export function createFakeWhatsAppLogin(
  onOpen?: (socket: FakeLinkSocket, index: number) => void,
): FakeWhatsAppLogin {
  const sockets: FakeLinkSocket[] = [];
  const waiters: Array<() => void> = [];
  const fake: FakeWhatsAppLogin = {
    sockets,
    factory: async (params) => {
      const fakeSocket = new FakeLinkSocket(params);
      sockets.push(fakeSocket);
      for (const wake of waiters.splice(0)) wake();
      const seam = fakeSocket.socket();
      // Baileys emits its first events after the caller subscribed: a tick later.
      if (onOpen) setTimeout(() => onOpen(fakeSocket, sockets.length - 1), 5);
      return seam;
    },
    async socket(n) {
      const deadline = Date.now() + 10_000;
      while (!sockets[n]) {
        if (Date.now() > deadline) throw new Error(`socket ${n} never opened`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 50);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      // Let the opener subscribe before the test emits.
      await new Promise((resolve) => setTimeout(resolve, 5));
      return sockets[n] as FakeLinkSocket;
    },
  };
  return fake;
}

/** Polls `check` (every 5 ms, up to 10 s) until it holds. */
export async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
