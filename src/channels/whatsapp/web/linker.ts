// WhatsApp Web's interactive login (`ChannelLogin`): one link attempt per account at a time, each
// holding the account's auth-dir lock while its socket is open, so no other process (a gateway, a
// second `channels login`) opens the same session meanwhile. The CLI and the gateway methods both
// drive it; QR codes come out as raw text (terminals) and as an SVG data URL (the UI).
import { existsSync, mkdirSync } from "node:fs";
import type {
  ChannelLogin,
  LoginAccount,
  LoginProgress,
  LoginSessionHooks,
  LogoutOutcome,
} from "../../index.js";
import {
  type AcquireAuthLock,
  type AuthLockAttempt,
  authDirOf,
  clearAuthDir,
  readLinkedIdentity,
  removeEmptyAuthDir,
  whatsAppAuthLocker,
} from "./auth-dir.js";
import { linkSessionOpener } from "./link-session.js";
import {
  type LinkSession,
  type LoginFlow,
  type OpenLinkSession,
  startLoginFlow,
} from "./login-flow.js";
import { qrDataUrl } from "./qr-render.js";
import type { WhatsAppSocketFactory } from "./socket-seam.js";

/** What the linker needs. */
export interface WhatsAppLinkerDeps {
  open: OpenLinkSession;
  lock: AcquireAuthLock;
  /** QR codes shown before an attempt gives up (default 8, about three minutes of codes). */
  maxQrs?: number;
  /** How long one attempt may take from its first socket to the link (default 3 min). */
  attemptMs?: number;
  /** How long an unlink waits for the session to open before removing the creds anyway. */
  logoutOpenMs?: number;
}

const DEFAULT_MAX_QRS = 8;
const DEFAULT_ATTEMPT_MS = 180_000;
const DEFAULT_LOGOUT_OPEN_MS = 15_000;
const SCAN_HINT = "Scan this QR in WhatsApp → Settings → Linked devices → Link a device.";

interface Attempt {
  accountId: string;
  authDir: string;
  flow: LoginFlow;
  /** Resolves once the attempt ended and its lock is released. */
  settled: Promise<void>;
  /** The QR last handed to a caller: `wait` returns early when a newer one exists. */
  reportedQr: string | undefined;
}

function describeIdentity(identity: { jid: string; e164?: string }): string {
  return identity.e164 ?? identity.jid;
}

/** Opens a session on linked creds and waits until it is open; undefined if it closes first. */
async function openLinked(
  open: OpenLinkSession,
  account: LoginAccount & { authDir: string },
  timeoutMs: number,
): Promise<LinkSession | undefined> {
  const session = await open({
    authDir: account.authDir,
    accountId: account.accountId,
    log: account.log,
  });
  const opened = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    session.onUpdate((update) => {
      if (update.connection === "open" || update.connection === "close" || update.qr) {
        clearTimeout(timer);
        resolve(update.connection === "open");
      }
    });
  });
  if (opened) return session;
  await session.close();
  return undefined;
}

/** Creates the WhatsApp login; attempts in progress live in this object (one per adapter). */
export function createWhatsAppLinker(deps: WhatsAppLinkerDeps): ChannelLogin {
  const attempts = new Map<string, Attempt>();
  /** Starts and logouts of one account run one at a time (a double click, a UI and a CLI). */
  const queues = new Map<string, Promise<unknown>>();
  const oneAtATime = <T>(accountId: string, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(accountId) ?? Promise.resolve()).then(work, work);
    const tail = next.catch(() => undefined);
    queues.set(accountId, tail);
    void tail.then(() => {
      if (queues.get(accountId) === tail) queues.delete(accountId);
    });
    return next;
  };
  const maxQrs = deps.maxQrs ?? DEFAULT_MAX_QRS;
  const attemptMs = deps.attemptMs ?? DEFAULT_ATTEMPT_MS;

  const progressOf = (attempt: Attempt): LoginProgress => {
    const { flow } = attempt;
    const outcome = flow.outcome;
    if (outcome?.ok) {
      return {
        state: "linked",
        connected: true,
        message: `Linked ${describeIdentity(outcome)} as account ${attempt.accountId}`,
        jid: outcome.jid,
        ...(outcome.e164 ? { e164: outcome.e164 } : {}),
        qrCount: flow.qrCount,
      };
    }
    if (outcome) {
      return {
        state: "failed",
        connected: false,
        reason: outcome.reason,
        message: outcome.message,
        qrCount: flow.qrCount,
      };
    }
    const qr = flow.qr;
    if (!qr) {
      // Between codes: none issued yet, or the scan is done and the restart finishes the link.
      const message =
        flow.qrCount > 0
          ? "Scanned; finishing the link with WhatsApp…"
          : "Waiting for WhatsApp's QR code…";
      return { state: "pending", connected: false, message, qrCount: flow.qrCount };
    }
    attempt.reportedQr = qr;
    return {
      state: "pending",
      connected: false,
      message: SCAN_HINT,
      qr,
      qrDataUrl: qrDataUrl(qr),
      qrCount: flow.qrCount,
    };
  };

  /** The progress to report; an ended attempt is reported once, after its lock is released. */
  const report = async (attempt: Attempt): Promise<LoginProgress> => {
    if (attempt.flow.outcome) {
      await attempt.settled;
      if (attempts.get(attempt.accountId) === attempt) attempts.delete(attempt.accountId);
    }
    return progressOf(attempt);
  };

  /** Runs a caller's after-session hook; a failure is logged (the login's outcome stands). */
  const runAfter = async (account: LoginAccount & LoginSessionHooks) => {
    try {
      await account.afterSession?.();
    } catch (err) {
      account.log.error(
        { err: String(err), accountId: account.accountId },
        "whatsapp login: restoring the account after the login failed",
      );
    }
  };

  /** Runs the caller's before-session hook, then takes the lock; a refusal (or a throw) runs the
   *  after-session hook, so a held account is never left stopped. */
  const takeLock = async (
    account: LoginAccount & LoginSessionHooks,
    authDir: string,
  ): Promise<AuthLockAttempt> => {
    await account.beforeSession?.();
    let lock: AuthLockAttempt;
    try {
      mkdirSync(authDir, { recursive: true, mode: 0o700 });
      lock = deps.lock(authDir);
    } catch (err) {
      await runAfter(account);
      throw err;
    }
    if (!lock.ok) await runAfter(account);
    return lock;
  };

  /** Runs `work` under a held lock; a throw releases the lock and the account, then rethrows. */
  const releaseOnThrow = async <T>(
    account: LoginAccount & LoginSessionHooks,
    lock: { release: () => void },
    work: () => Promise<T>,
  ): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      lock.release();
      await runAfter(account);
      throw err;
    }
  };

  const cancel = async (accountId: string) => {
    const attempt = attempts.get(accountId);
    if (!attempt) return;
    attempts.delete(accountId);
    await attempt.flow.cancel("login cancelled");
    await attempt.settled;
  };

  /** Tells WhatsApp this device is gone when the creds still open a session; false otherwise. */
  const tellLoggedOut = async (account: LoginAccount, authDir: string): Promise<boolean> => {
    try {
      const session = await openLinked(
        deps.open,
        { ...account, authDir },
        deps.logoutOpenMs ?? DEFAULT_LOGOUT_OPEN_MS,
      );
      if (!session) return false;
      try {
        await session.logout();
        return true;
      } finally {
        await session.close();
      }
    } catch (err) {
      account.log.warn(
        { err: String(err), accountId: account.accountId },
        "whatsapp logout: could not tell WhatsApp; removing the local creds anyway",
      );
      return false;
    }
  };

  const startAttempt = async (
    request: Parameters<ChannelLogin["start"]>[0],
  ): Promise<LoginProgress> => {
    const dir = await authDirOf(request);
    if (!dir.ok)
      return { state: "failed", connected: false, reason: "invalid", message: dir.error };
    const { place } = dir;
    const { authDir } = place;
    const current = attempts.get(request.accountId);
    if (current && !current.flow.outcome && !request.force) {
      return { ...progressOf(current), message: `QR already active. ${SCAN_HINT}` };
    }
    if (current) await cancel(request.accountId);
    const linked = readLinkedIdentity(authDir);
    if (linked && !request.force) {
      return {
        state: "linked",
        connected: true,
        reason: "already-linked",
        message: `WhatsApp account ${request.accountId} is already linked (${describeIdentity(linked)}); pass force to link it again`,
        jid: linked.jid,
        ...(linked.e164 ? { e164: linked.e164 } : {}),
      };
    }
    const lock = await takeLock(request, authDir);
    if (!lock.ok) {
      return { state: "failed", connected: false, reason: "locked", message: lock.message };
    }
    if (linked) {
      // Relinking: the old device is unlinked first so the phone does not keep a stale entry.
      const removed = await releaseOnThrow(request, lock, async () => {
        await tellLoggedOut(request, authDir);
        return clearAuthDir(place);
      });
      if (!removed.ok) {
        lock.release();
        await runAfter(request);
        return { state: "failed", connected: false, reason: "invalid", message: removed.error };
      }
    }
    const flow = startLoginFlow({
      authDir,
      accountId: request.accountId,
      open: deps.open,
      maxQrs,
      timeoutMs: attemptMs,
      log: request.log,
    });
    const attempt: Attempt = {
      accountId: request.accountId,
      authDir,
      flow,
      reportedQr: undefined,
      settled: flow.done.then(async (outcome) => {
        // Creds WhatsApp logged out are useless: the next attempt starts from a clean dir.
        const stale = !outcome.ok && outcome.reason === "logged-out";
        try {
          if (stale) {
            const removed = clearAuthDir(place);
            if (!removed.ok) request.log.warn({ authDir }, removed.error);
          }
        } finally {
          lock.release();
          await runAfter(request);
        }
        if (stale) removeEmptyAuthDir(authDir);
      }),
    };
    attempts.set(request.accountId, attempt);
    await flow.nextChange(request.timeoutMs);
    return report(attempt);
  };

  const unlink = async (request: Parameters<ChannelLogin["logout"]>[0]): Promise<LogoutOutcome> => {
    await cancel(request.accountId);
    const dir = await authDirOf(request);
    if (!dir.ok) return { state: "refused", loggedOut: false, message: dir.error };
    const { place } = dir;
    const { authDir } = place;
    if (!existsSync(authDir)) {
      return {
        state: "never-linked",
        loggedOut: false,
        message: `WhatsApp account ${request.accountId} was never linked (no credentials in ${authDir})`,
      };
    }
    const lock = await takeLock(request, authDir);
    if (!lock.ok) return { state: "refused", loggedOut: false, message: lock.message };
    let cleared = false;
    try {
      const linked = readLinkedIdentity(authDir);
      const loggedOut = linked ? await tellLoggedOut(request, authDir) : false;
      const removed = clearAuthDir(place);
      if (!removed.ok) return { state: "refused", loggedOut, message: removed.error };
      cleared = true;
      const who = linked ? ` (${describeIdentity(linked)})` : "";
      const told = loggedOut
        ? "unlinked on WhatsApp"
        : linked
          ? "WhatsApp was not reachable: remove the device under Linked devices on the phone"
          : "it had not finished linking";
      return {
        state: "unlinked",
        loggedOut,
        message: `Logged out WhatsApp account ${request.accountId}${who}: ${told}; removed ${authDir}`,
      };
    } finally {
      lock.release();
      if (cleared) removeEmptyAuthDir(authDir);
      await runAfter(request);
    }
  };

  return {
    start: (request) => oneAtATime(request.accountId, () => startAttempt(request)),
    logout: (request) => oneAtATime(request.accountId, () => unlink(request)),
    async wait(request) {
      const attempt = attempts.get(request.accountId);
      if (!attempt) {
        return {
          state: "failed",
          connected: false,
          reason: "no-login",
          message: `No WhatsApp login in progress for account ${request.accountId}: start one first.`,
        };
      }
      const { flow } = attempt;
      // Early only for news: the end, or a QR code the caller has not seen yet.
      const fresh = flow.qr !== undefined && flow.qr !== attempt.reportedQr;
      if (!flow.outcome && !fresh) await flow.nextChange(request.timeoutMs);
      return report(attempt);
    },

    cancel,

    async cancelAll() {
      await Promise.all([...attempts.keys()].map(cancel));
    },
  };
}

/** The WhatsApp adapter's login: the linker over real sockets (or `createSocket`'s) and the
 *  transport's auth-dir lock. */
export function createWhatsAppLogin(
  options: { createSocket?: WhatsAppSocketFactory } = {},
): ChannelLogin {
  return createWhatsAppLinker({
    open: linkSessionOpener(options.createSocket),
    lock: whatsAppAuthLocker("whatsapp login"),
  });
}
