// One WhatsApp Web link attempt: opens a socket on the account's auth dir, passes on each QR code
// WhatsApp issues (it rotates them about every 20 s), reopens the socket once when WhatsApp asks for
// a restart after the scan (status 515: the saved creds finish the pairing), and ends linked or with
// a reason: QR attempts used up, timed out, logged out, replaced, closed or cancelled.
import type { Logger } from "../../index.js";
import { jidToE164 } from "../peer-id.js";

/** Baileys' close statuses (`DisconnectReason`) a link attempt tells apart. */
export const CloseStatus = {
  loggedOut: 401,
  timedOut: 408,
  connectionReplaced: 440,
  restartRequired: 515,
} as const;

/** One `connection.update` as the login needs it. */
export interface LinkUpdate {
  qr?: string;
  connection?: "open" | "connecting" | "close";
  /** The close's status code (see {@link CloseStatus}), when WhatsApp gave one. */
  closeStatus?: number;
  closeMessage?: string;
}

/** The part of a WhatsApp Web socket linking uses (creds are saved to the auth dir as they change). */
export interface LinkSession {
  onUpdate(listener: (update: LinkUpdate) => void): void;
  /** The linked device's own JID (`15551234567:3@s.whatsapp.net`) once open. */
  selfJid(): string | undefined;
  /** Unlinks the device on WhatsApp's side (the phone's "Linked devices" entry goes away). */
  logout(): Promise<void>;
  /** Ends the socket once pending auth state writes are on disk. */
  close(): Promise<void>;
}

/** Opens one socket on an account's auth dir. */
export type OpenLinkSession = (params: {
  authDir: string;
  accountId: string;
  log: Logger;
}) => Promise<LinkSession>;

/** Why a link attempt ended without a link. */
export type LoginFailureReason =
  | "qr-expired"
  | "timeout"
  | "logged-out"
  | "replaced"
  | "closed"
  | "cancelled";

/** How a link attempt ended. */
export type LoginOutcome =
  | { ok: true; jid: string; e164?: string }
  | { ok: false; reason: LoginFailureReason; message: string };

/** A link attempt in progress. */
export interface LoginFlow {
  /** The QR code to show now (undefined before the first one and after the end). */
  readonly qr: string | undefined;
  /** QR codes issued so far. */
  readonly qrCount: number;
  /** The outcome once ended. */
  readonly outcome: LoginOutcome | undefined;
  /** Settles with the outcome, after the socket is closed. */
  readonly done: Promise<LoginOutcome>;
  /** Resolves at the next QR code or the end, or after `timeoutMs`, whichever comes first. */
  nextChange(timeoutMs: number): Promise<void>;
  /** Ends the attempt (`cancelled`) and closes its socket. */
  cancel(message: string): Promise<LoginOutcome>;
}

/** What a link attempt needs. */
export interface LoginFlowParams {
  authDir: string;
  accountId: string;
  open: OpenLinkSession;
  /** QR codes shown before giving up (WhatsApp also stops issuing them on its own: status 408). */
  maxQrs: number;
  /** The whole attempt's limit, from the first socket to the link. */
  timeoutMs: number;
  log: Logger;
}

function describeClose(update: LinkUpdate): string {
  const status = update.closeStatus === undefined ? "no status" : `status ${update.closeStatus}`;
  return update.closeMessage ? `${status}: ${update.closeMessage}` : status;
}

/** Starts a link attempt; the first QR code arrives through `nextChange`. */
export function startLoginFlow(params: LoginFlowParams): LoginFlow {
  const { log } = params;
  let session: LinkSession | undefined;
  let qr: string | undefined;
  let qrCount = 0;
  let restarted = false;
  let outcome: LoginOutcome | undefined;
  let resolveDone: (outcome: LoginOutcome) => void = () => {};
  const done = new Promise<LoginOutcome>((resolve) => {
    resolveDone = resolve;
  });
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const wake of [...waiters]) wake();
  };

  const closeSession = async (target: LinkSession | undefined) => {
    if (!target) return;
    try {
      await target.close();
    } catch (err) {
      log.warn({ err: String(err), authDir: params.authDir }, "whatsapp login: closing failed");
    }
  };

  const finish = async (result: LoginOutcome): Promise<LoginOutcome> => {
    if (outcome) return done;
    outcome = result;
    qr = undefined;
    clearTimeout(timer);
    await closeSession(session);
    resolveDone(result);
    notify();
    return result;
  };

  const timer = setTimeout(() => {
    const seconds = Math.round(params.timeoutMs / 1000);
    void finish({
      ok: false,
      reason: "timeout",
      message: `timed out after ${seconds}s waiting for the QR code to be scanned`,
    });
  }, params.timeoutMs);

  const onClose = async (from: LinkSession, update: LinkUpdate) => {
    const status = update.closeStatus;
    if (status === CloseStatus.restartRequired && !restarted) {
      // The scan succeeded and the creds are saved: WhatsApp wants a fresh socket to finish.
      restarted = true;
      qr = undefined;
      log.info({ authDir: params.authDir }, "whatsapp login: restart after pairing (515)");
      await closeSession(from);
      await openSession();
      return;
    }
    if (status === CloseStatus.loggedOut) {
      await finish({
        ok: false,
        reason: "logged-out",
        message: "WhatsApp logged this device out (status 401): run the login again for a new QR",
      });
    } else if (status === CloseStatus.timedOut) {
      await finish(
        qrCount > 0
          ? {
              ok: false,
              reason: "qr-expired",
              message: `QR code expired after ${qrCount} attempts (WhatsApp stopped issuing new ones)`,
            }
          : { ok: false, reason: "timeout", message: "timed out connecting to WhatsApp" },
      );
    } else if (status === CloseStatus.connectionReplaced) {
      await finish({
        ok: false,
        reason: "replaced",
        message: "another WhatsApp Web session replaced this one (status 440)",
      });
    } else {
      await finish({
        ok: false,
        reason: "closed",
        message: `WhatsApp closed the connection (${describeClose(update)})`,
      });
    }
  };

  const onUpdate = (from: LinkSession, update: LinkUpdate) => {
    if (outcome || from !== session) return;
    if (update.qr !== undefined) {
      qrCount += 1;
      if (qrCount > params.maxQrs) {
        void finish({
          ok: false,
          reason: "qr-expired",
          message: `QR code expired after ${params.maxQrs} attempts without a scan`,
        });
        return;
      }
      qr = update.qr;
      notify();
    }
    if (update.connection === "open") {
      const jid = from.selfJid() ?? "";
      const e164 = jidToE164(jid);
      void finish({ ok: true, jid, ...(e164 ? { e164 } : {}) });
    } else if (update.connection === "close") {
      void onClose(from, update);
    }
  };

  const openSession = async () => {
    try {
      const opened = await params.open({
        authDir: params.authDir,
        accountId: params.accountId,
        log,
      });
      if (outcome) {
        await closeSession(opened);
        return;
      }
      session = opened;
      opened.onUpdate((update) => onUpdate(opened, update));
    } catch (err) {
      await finish({
        ok: false,
        reason: "closed",
        message: `could not open the WhatsApp connection: ${String(err)}`,
      });
    }
  };
  void openSession();

  return {
    get qr() {
      return qr;
    },
    get qrCount() {
      return qrCount;
    },
    get outcome() {
      return outcome;
    },
    done,
    nextChange: (timeoutMs) =>
      outcome
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const wake = () => {
              clearTimeout(wait);
              waiters.delete(wake);
              resolve();
            };
            const wait = setTimeout(wake, timeoutMs);
            waiters.add(wake);
          }),
    cancel: (message) => finish({ ok: false, reason: "cancelled", message }),
  };
}
