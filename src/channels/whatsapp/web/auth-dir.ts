// What linking needs to know about an account's auth dir: who it is linked as (`creds.json`'s
// `me`), and removing it on unlink, never a directory that holds more than one account's creds
// (the state dir, the home directory, a parent of either): nothing else in the state dir goes.
import { readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative, resolve } from "node:path";
import type { LoginAccount } from "../../login.js";
import { jidToE164 } from "../peer-id.js";

/** The home directory of an account's environment (what `~` stands for). */
export function homeOf(account: Pick<LoginAccount, "env">): string {
  return account.env.HOME?.trim() || homedir();
}

/** The account's auth dir: `authDir` (`~` expanded) when set, else
 *  `<stateDir>/credentials/whatsapp/<accountId>`; an error for an id that cannot be a path segment. */
export function authDirOf(
  account: Pick<LoginAccount, "accountId" | "config" | "stateDir" | "env">,
): { ok: true; authDir: string } | { ok: false; error: string } {
  const raw = typeof account.config.authDir === "string" ? account.config.authDir.trim() : "";
  if (raw) {
    const home = homeOf(account);
    const expanded = raw === "~" ? home : raw.startsWith("~/") ? join(home, raw.slice(2)) : raw;
    return { ok: true, authDir: resolve(expanded) };
  }
  const id = account.accountId;
  if (!id || id === "." || id === ".." || /[/\\\0]/.test(id)) {
    return { ok: false, error: `account id ${JSON.stringify(id)} cannot name an auth dir` };
  }
  return { ok: true, authDir: join(account.stateDir, "credentials", "whatsapp", id) };
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
    text = readFileSync(join(authDir, "creds.json"), "utf8");
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

/** Removes one account's auth dir; refuses (an error value) a dir that is not one account's. */
export function removeAuthDir(params: {
  authDir: string;
  stateDir: string;
  home: string;
}): { ok: true } | { ok: false; error: string } {
  const unsafe = unsafeAuthDirReason(params);
  if (unsafe) return { ok: false, error: `refusing to remove the auth dir: ${unsafe}` };
  rmSync(params.authDir, { recursive: true, force: true });
  return { ok: true };
}
