// The life of one WhatsApp Web session in the gateway: the auth-dir lock, the auth state and one
// socket at a time. `open` reports the account connected with its own number; a close is sorted by
// its code: `restartRequired` (right after linking) reconnects at once; `loggedOut` and
// `connectionReplaced` are terminal (status says what to do, the lock is released, no reconnect);
// any other close ends the run as failed so the host's supervisor starts it again with backoff. An
// account that is not linked (or is terminal) holds no lock and no socket: it looks at its auth dir
// every few seconds and connects once `channels login` wrote new credentials.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { abortableSleep } from "../../../lib/abortable-sleep.js";
import type { ChannelAccountContext, ChannelAccountEnd, SendFailure } from "../../index.js";
import { describeError } from "../../index.js";
import { acquireWhatsAppAuthLock, type WhatsAppAuthLock } from "./auth-lock.js";
import {
  hasLinkedCreds,
  openWhatsAppAuthStore,
  WHATSAPP_CREDS_FILE,
  type WhatsAppAuthStore,
} from "./auth-state.js";
import type { WebSelfIdentity } from "./inbound.js";
import { selfIdentityOf } from "./self-identity.js";
import type { WebAccountSettings } from "./settings.js";
import {
  disconnectCode,
  WA_DISCONNECT,
  type WhatsAppSocket,
  type WhatsAppSocketEvents,
  type WhatsAppSocketFactory,
} from "./socket-seam.js";

/** How often an account without a usable session looks for new credentials. */
export const DEFAULT_LINK_POLL_MS = 3_000;
/** `restartRequired` closes in a row (without an open between) before the run counts as failed. */
const MAX_IMMEDIATE_RESTARTS = 3;

/** Inputs for {@link createWebSession}. */
export interface WebSessionParams {
  context: ChannelAccountContext;
  settings: WebAccountSettings;
  factory: WhatsAppSocketFactory;
  linkPollMs: number;
  now: () => number;
  /** A socket opened: wire its messages (the session wires connection and creds). */
  onSocket: (socket: WhatsAppSocket) => () => void;
}

/** One account's session. */
export interface WebSession {
  /** Connects (linked creds) or starts waiting for a link; throws when the lock is held elsewhere. */
  start(): Promise<void>;
  /** The open socket and who it is, or why there is none. */
  current(): { socket: WhatsAppSocket; self: WebSelfIdentity } | { unavailable: SendFailure };
  /** Who the account is, once known (also while reconnecting). */
  self(): WebSelfIdentity | undefined;
  /** Settles on stop (`failed: false`) or on a transient close (`failed: true`). */
  readonly ended: Promise<ChannelAccountEnd>;
  stop(): Promise<void>;
}

function loginHint(accountId: string): string {
  return `run pincer channels login --channel whatsapp --account ${accountId}`;
}

function codeName(code: number | undefined): string {
  const name = Object.entries(WA_DISCONNECT).find(([, value]) => value === code)?.[0];
  return code === undefined ? "no status code" : `${code}${name ? ` ${name}` : ""}`;
}

async function credsText(authDir: string): Promise<string | undefined> {
  return readFile(join(authDir, WHATSAPP_CREDS_FILE), "utf8").catch(() => undefined);
}

/** Creates the session of one account (nothing opens before `start`). */
export function createWebSession(params: WebSessionParams): WebSession {
  const { context, settings, now } = params;
  const { log, accountId } = context;
  const authDir = settings.authDir;
  const stopController = new AbortController();
  let lock: WhatsAppAuthLock | undefined;
  let store: WhatsAppAuthStore | undefined;
  let socket: WhatsAppSocket | undefined;
  let detachSocket: (() => void) | undefined;
  let open = false;
  let identity: WebSelfIdentity | undefined;
  let unavailable: SendFailure = {
    message: "whatsapp: not connected yet",
    retryable: true,
    code: "not_connected",
  };
  let immediateRestarts = 0;
  let settle: (end: ChannelAccountEnd) => void = () => {};
  const ended = new Promise<ChannelAccountEnd>((resolve) => {
    settle = resolve;
  });

  const closeSocket = () => {
    detachSocket?.();
    detachSocket = undefined;
    const closing = socket;
    socket = undefined;
    open = false;
    closing?.end(undefined);
  };

  const releaseSession = async () => {
    closeSocket();
    await store?.flush();
    store = undefined;
    lock?.release();
    lock = undefined;
  };

  const fail = (error: string) => {
    unavailable = { message: `whatsapp: ${error}`, retryable: true, code: "not_connected" };
    context.report({ connected: false, lastError: error, lastErrorAt: now() });
    log.warn({ accountId, error }, "whatsapp: connection lost");
    closeSocket();
    settle({ failed: true, error });
  };

  /** No usable session: say why, hold nothing, and connect once the creds change (a new link). */
  const wait = (reason: string, previousCreds: string | undefined) => {
    unavailable = { message: `whatsapp: ${reason}`, retryable: false, code: "not_linked" };
    context.report({ connected: false, lastError: reason, lastErrorAt: now() });
    log.warn({ accountId, authDir, reason }, "whatsapp: session not usable");
    void (async () => {
      while (!stopController.signal.aborted) {
        await abortableSleep(params.linkPollMs, stopController.signal);
        if (stopController.signal.aborted) return;
        const creds = await credsText(authDir);
        if (creds === undefined || creds === previousCreds || !(await hasLinkedCreds(authDir)))
          continue;
        try {
          await connect();
          return;
        } catch (err) {
          await releaseSession();
          context.report({ lastError: `${reason} (${describeError(err)})`, lastErrorAt: now() });
        }
      }
    })().catch((err: unknown) => {
      log.error({ accountId, error: describeError(err) }, "whatsapp: link watch failed");
      settle({ failed: true, error: `link watch failed: ${describeError(err)}` });
    });
  };

  const terminal = async (reason: string) => {
    const creds = await credsText(authDir);
    await releaseSession();
    wait(reason, creds);
  };

  const onConnection = (
    owner: WhatsAppSocket,
    update: WhatsAppSocketEvents["connection.update"],
  ) => {
    if (owner !== socket || stopController.signal.aborted) return;
    // WhatsApp asks for a QR only when it does not accept the stored link: the gateway never shows
    // one (that is `channels login`), the account waits for a new link instead.
    if (update.qr) {
      void terminal(`not linked: ${loginHint(accountId)}`);
      return;
    }
    if (update.connection === "open") {
      open = true;
      immediateRestarts = 0;
      identity = selfIdentityOf(owner.user) ?? identity;
      context.report({
        connected: true,
        ...(identity
          ? { identity: { id: identity.e164, ...(identity.name ? { name: identity.name } : {}) } }
          : {}),
        lastError: undefined,
      });
      log.info({ accountId, number: identity?.e164 }, "whatsapp: connected");
      return;
    }
    if (update.connection !== "close") return;
    open = false;
    const code = disconnectCode(update);
    if (code === WA_DISCONNECT.loggedOut) {
      void terminal(`logged out: ${loginHint(accountId)}`);
    } else if (code === WA_DISCONNECT.connectionReplaced) {
      void terminal(
        "replaced by another session: another device/process opened this WhatsApp session " +
          `(${authDir}); stop it, then restart the gateway or link again`,
      );
    } else if (
      code === WA_DISCONNECT.restartRequired &&
      immediateRestarts < MAX_IMMEDIATE_RESTARTS
    ) {
      immediateRestarts += 1;
      closeSocket();
      openSocket().catch((err: unknown) => fail(`reconnect failed: ${describeError(err)}`));
    } else {
      fail(`connection closed (${codeName(code)})`);
    }
  };

  const openSocket = async () => {
    if (!store) throw new Error("auth state not loaded");
    const opened = await params.factory({ auth: store.state, log, accountId });
    if (stopController.signal.aborted) {
      opened.end(undefined);
      return;
    }
    socket = opened;
    const authStore = store;
    const onUpdate = (update: WhatsAppSocketEvents["connection.update"]) =>
      onConnection(opened, update);
    const onCreds = () => {
      authStore.saveCreds().catch((err: unknown) => {
        const error = `credentials not saved: ${describeError(err)}`;
        log.error({ accountId, authDir, error }, "whatsapp: credentials not saved");
        context.report({ lastError: error, lastErrorAt: now() });
      });
    };
    opened.ev.on("connection.update", onUpdate);
    opened.ev.on("creds.update", onCreds);
    const detachMessages = params.onSocket(opened);
    detachSocket = () => {
      opened.ev.off("connection.update", onUpdate);
      opened.ev.off("creds.update", onCreds);
      detachMessages();
    };
  };

  const connect = async () => {
    lock ??= acquireWhatsAppAuthLock({ authDir, command: "gateway", log, now });
    store ??= await openWhatsAppAuthStore(authDir);
    identity = selfIdentityOf(store.state.creds.me) ?? identity;
    unavailable = { message: "whatsapp: connecting", retryable: true, code: "not_connected" };
    await openSocket();
  };

  return {
    async start() {
      if (!(await hasLinkedCreds(authDir))) {
        wait(`not linked: ${loginHint(accountId)}`, undefined);
        return;
      }
      try {
        await connect();
      } catch (err) {
        await releaseSession();
        throw err;
      }
    },
    current: () => (socket && open && identity ? { socket, self: identity } : { unavailable }),
    self: () => identity,
    ended,
    async stop() {
      stopController.abort();
      await releaseSession();
      settle({ failed: false });
    },
  };
}
