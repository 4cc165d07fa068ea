// What linking needs of an account's auth dir: where it is (web accounts only), its lock as an
// attempt value, who it is linked as (`creds.json`'s `me`), and emptying it on unlink or relink
// while its lock file stays (the lock is held through the removal), never a directory that holds
// more than one account's creds (the state dir, the home directory, a parent of either): nothing
// else in the state dir goes.
import { readdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative, resolve } from "node:path";
import type { LoginAccount } from "../../index.js";
import { jidToE164 } from "../peer-id.js";
import { transportOf } from "../transport.js";
import { resolveWhatsAppAuthDir, WHATSAPP_CREDS_FILE } from "./auth-dir-path.js";
import {
  acquireWhatsAppAuthLock,
  WHATSAPP_AUTH_LOCK_FILE,
  WhatsAppSessionLockedError,
} from "./auth-lock.js";

/** The home directory of an account's environment (what `~` stands for). */
export function homeOf(account: Pick<LoginAccount, "env">): string {
  return account.env.HOME?.trim() || homedir();
}

/** Who an auth dir is linked as. */
export interface LinkedIdentity {
  jid: string;
  e164?: string;
}

/** The identity in `creds.json` (`me.id`), or undefined when the dir holds no linked creds. */
export function readLinkedIdentity(authDir: string): LinkedIdentity | undefined {
  let text: string;
  try {
    text = readFileSync(join(authDir, WHATSAPP_CREDS_FILE), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  let creds: { me?: { id?: unknown } };
  try {
    creds = JSON.parse(text) as { me?: { id?: unknown } };
  } catch (err) {
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
  const jid = creds.me?.id;
  if (typeof jid !== "string" || jid === "") return undefined;
  const e164 = jidToE164(jid);
  return { jid, ...(e164 ? { e164 } : {}) };
}

/** True when `inner` is `outer` or inside it. */
function isWithin(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"));
}

/** Why `authDir` must not be removed as one account's creds, or undefined when it may. */
export function unsafeAuthDirReason(params: {
  authDir: string;
  stateDir: string;
  home: string;
}): string | undefined {
  const dir = resolve(params.authDir);
  const guarded = [
    ["the state dir", resolve(params.stateDir)],
    ["the home directory", resolve(params.home)],
  ] as const;
  if (dir === resolve("/")) return `${dir} is the filesystem root`;
  for (const [name, path] of guarded) {
    if (isWithin(path, dir)) return `${dir} is ${name} or contains it`;
  }
  return undefined;
}

/** Where an auth dir lives and what guards it (the state dir and home it must not contain). */
export interface AuthDirPlace {
  authDir: string;
  stateDir: string;
  home: string;
}

/** Removes everything in one account's auth dir but its lock file (held by the caller); refuses
 *  (an error value) a dir that is not one account's. */
export function clearAuthDir(place: AuthDirPlace): { ok: true } | { ok: false; error: string } {
  const unsafe = unsafeAuthDirReason(place);
  if (unsafe) return { ok: false, error: `refusing to remove the auth dir: ${unsafe}` };
  let names: string[];
  try {
    names = readdirSync(place.authDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { ok: true };
    throw err;
  }
  for (const name of names) {
    if (name !== WHATSAPP_AUTH_LOCK_FILE) {
      rmSync(join(place.authDir, name), { recursive: true, force: true });
    }
  }
  return { ok: true };
}

/** Removes an auth dir emptied by {@link clearAuthDir} once its lock is released; a dir another
 *  process has meanwhile locked again (not empty) stays. */
export function removeEmptyAuthDir(authDir: string): void {
  try {
    rmdirSync(authDir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTEMPTY" && code !== "EEXIST") throw err;
  }
}

/** A held auth-dir lock, or who holds it (a message naming the holder's pid). */
export type AuthLockAttempt = { ok: true; release: () => void } | { ok: false; message: string };

/** Takes the exclusive lock of one auth dir (the directory exists). */
export type AcquireAuthLock = (authDir: string) => AuthLockAttempt;

/** The auth-dir lock of the transport (`<authDir>/.pincer.lock`), as an attempt value. */
export function whatsAppAuthLocker(command: string): AcquireAuthLock {
  return (authDir) => {
    try {
      const lock = acquireWhatsAppAuthLock({ authDir, command });
      return { ok: true, release: () => lock.release() };
    } catch (err) {
      if (err instanceof WhatsAppSessionLockedError) return { ok: false, message: err.message };
      throw err;
    }
  };
}

/** The account's auth dir (the transport's rule: `authDir`, else under the state dir); an error
 *  for an account that is not on WhatsApp Web (a Cloud API account has a token, no QR). */
export async function authDirOf(
  account: LoginAccount,
): Promise<{ ok: true; place: AuthDirPlace } | { ok: false; error: string }> {
  const transport = transportOf(account.config);
  if (!transport.ok) return { ok: false, error: transport.error };
  if (transport.transport !== "web") {
    return {
      ok: false,
      error: `WhatsApp account ${account.accountId} uses the Cloud API (transport: ${transport.transport}): it has no QR login; its token is in the config`,
    };
  }
  const dir = resolveWhatsAppAuthDir({ ...account });
  if (!dir.ok) return dir;
  return {
    ok: true,
    place: { authDir: dir.authDir, stateDir: account.stateDir, home: homeOf(account) },
  };
}
