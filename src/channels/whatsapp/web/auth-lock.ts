// Exactly one process opens a WhatsApp Web session: `<authDir>/.pincer.lock` (a pid lock file,
// `src/lib/pid-lock.ts`) is taken before any socket opens and held until the account stops. A second
// gateway, a `channels login` while the gateway runs the account, or two accounts naming one auth
// dir get a clear error naming the auth dir and the holder. A lock left by a dead process is taken
// over.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../../../lib/logger.js";
import {
  describePidLockHolder,
  type PidLockInfo,
  readPidLock,
  tryAcquirePidLock,
} from "../../../lib/pid-lock.js";

/** The lock file's name inside an auth dir. */
export const WHATSAPP_AUTH_LOCK_FILE = ".pincer.lock";

/** A held auth-dir lock; `release` is idempotent and removes the file only if it is still ours. */
export interface WhatsAppAuthLock {
  readonly authDir: string;
  readonly path: string;
  release(): void;
}

/** Raised when another live process (or this one, for another account) has the session open. */
export class WhatsAppSessionLockedError extends Error {
  constructor(
    readonly authDir: string,
    readonly holder: PidLockInfo | undefined,
  ) {
    const self = holder?.pid === process.pid ? " (this process, for another account)" : "";
    super(
      `WhatsApp session ${authDir} is already open by ${describePidLockHolder(holder)}${self}; ` +
        "only one process may open a WhatsApp session: stop that process (or run this through " +
        "the gateway that has it open)",
    );
    this.name = "WhatsAppSessionLockedError";
  }
}

/** Inputs for {@link acquireWhatsAppAuthLock}. */
export interface AcquireWhatsAppAuthLockParams {
  authDir: string;
  /** What opens the session (`gateway`, `channels login`), shown to a refused second process. */
  command: string;
  log?: Logger;
  now?: () => number;
}

/** Path of an auth dir's lock file. */
export function whatsAppAuthLockPath(authDir: string): string {
  return join(authDir, WHATSAPP_AUTH_LOCK_FILE);
}

/** Who has the session of `authDir` open, if anyone (the lock may be stale). */
export function readWhatsAppAuthLock(authDir: string): PidLockInfo | undefined {
  return readPidLock(whatsAppAuthLockPath(authDir));
}

/** Takes the lock of `authDir` (creating the dir 0700); throws {@link WhatsAppSessionLockedError}
 *  when a live process holds it. */
export function acquireWhatsAppAuthLock(params: AcquireWhatsAppAuthLockParams): WhatsAppAuthLock {
  const now = params.now ?? Date.now;
  mkdirSync(params.authDir, { recursive: true, mode: 0o700 });
  const path = whatsAppAuthLockPath(params.authDir);
  const attempt = tryAcquirePidLock({
    path,
    info: { pid: process.pid, createdAt: new Date(now()).toISOString(), command: params.command },
    now,
    ...(params.log ? { logger: params.log } : {}),
  });
  if (!attempt.ok) throw new WhatsAppSessionLockedError(params.authDir, attempt.holder);
  const { lock } = attempt;
  return { authDir: params.authDir, path, release: () => lock.release() };
}
