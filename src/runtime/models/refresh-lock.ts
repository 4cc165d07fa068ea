// The per-agent credential lock `<agentDir>/auth-profiles.json.lock` (src/lib/pid-lock.ts: exclusive
// create with the holder's pid, a dead holder's lock taken over). An OAuth refresh runs under it so
// two processes never both spend the same refresh token: providers invalidate a refresh token once
// it is used, and the loser would be logged out. Waiters poll until the holder lets go.
import { mkdirSync } from "node:fs";
import { describePidLockHolder, tryAcquirePidLock } from "../../lib/pid-lock.js";
import { authStorePath } from "./auth-store.js";

/** How long a refresh waits for another process's refresh before giving up (ms). */
export const AUTH_LOCK_WAIT_MS = 30_000;
const POLL_MS = 50;

/** Path of an agent's credential lock file. */
export function authStoreLockPath(agentDir: string): string {
  return `${authStorePath(agentDir)}.lock`;
}

/** Inputs of {@link withAuthStoreLock}. */
export interface AuthStoreLockParams {
  agentDir: string;
  /** This process's id, written into the lock (default process.pid). */
  pid: number;
  /** What holds the lock, for the message a waiter sees. */
  command: string;
  /** Give up after this long (default {@link AUTH_LOCK_WAIT_MS}). */
  waitMs?: number;
}

/** Result of {@link withAuthStoreLock}: the body's value, or who kept the lock past the wait. */
export type AuthStoreLockResult<T> = { ok: true; value: T } | { ok: false; error: string };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `body` holding the agent's credential lock (waiting for another holder to release it). */
export async function withAuthStoreLock<T>(
  params: AuthStoreLockParams,
  body: () => Promise<T>,
): Promise<AuthStoreLockResult<T>> {
  mkdirSync(params.agentDir, { recursive: true, mode: 0o700 });
  const path = authStoreLockPath(params.agentDir);
  const waitMs = params.waitMs ?? AUTH_LOCK_WAIT_MS;
  const info = { pid: params.pid, createdAt: new Date().toISOString(), command: params.command };
  let waited = 0;
  for (;;) {
    const attempt = tryAcquirePidLock({ path, info });
    if (attempt.ok) {
      try {
        return { ok: true, value: await body() };
      } finally {
        attempt.lock.release();
      }
    }
    if (waited >= waitMs) {
      return {
        ok: false,
        error: `${path} is held by ${describePidLockHolder(attempt.holder)} (waited ${waitMs} ms)`,
      };
    }
    await sleep(POLL_MS);
    waited += POLL_MS;
  }
}
