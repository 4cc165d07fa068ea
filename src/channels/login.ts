// An interactive account login, for channels that link by scanning a code (WhatsApp Web's QR)
// rather than by a token in the config. An adapter offers it as `login`; the CLI (`channels login`,
// `channels logout`) and the gateway (`web.login.start` / `web.login.wait`, `channels.logout`) drive
// the same object, so there is one implementation of linking per channel.
import type { ChannelAccountConfig, Logger } from "./types.js";

/** The account a login acts on, resolved by the caller (CLI or gateway). */
export interface LoginAccount {
  accountId: string;
  /** The account's resolved settings (`channels.<id>` overlaid by `accounts.<id>`). */
  config: ChannelAccountConfig;
  stateDir: string;
  /** The environment (`HOME`: what `~` in a configured path stands for). */
  env: Record<string, string | undefined>;
  log: Logger;
}

/** Where a login stands: waiting for a scan, linked, or ended without a link. */
export type LoginState = "pending" | "linked" | "failed";

/** What a start or wait reports; OpenClaw's `{ qrDataUrl, message }` / `{ connected, message }`
 *  plus the raw QR text (for terminals) and the linked identity. */
export interface LoginProgress {
  state: LoginState;
  connected: boolean;
  message: string;
  /** The QR text to draw now (a newer one than before when WhatsApp rotated it). */
  qr?: string;
  /** The same QR as an image data URL, for the UI. */
  qrDataUrl?: string;
  /** How many QR codes were issued so far in this attempt. */
  qrCount?: number;
  /** Why it failed (`qr-expired`, `timeout`, `logged-out`, `locked`, …) when `state` is failed. */
  reason?: string;
  /** The linked account's own id on the platform (a WhatsApp JID) and its number. */
  jid?: string;
  e164?: string;
}

/** The outcome of an unlink: credentials removed, none there, or refused (locked, unsafe dir). */
export interface LogoutOutcome {
  state: "unlinked" | "never-linked" | "refused";
  /** Whether the platform was told (the phone's "Linked devices" entry is gone). */
  loggedOut: boolean;
  message: string;
}

/** What a caller does around a login's own session: the gateway stops the account's running
 *  session before (the login takes its auth lock) and starts it again after (linked or not). */
export interface LoginSessionHooks {
  /** Called once the login will open a session of its own, before it takes the account's lock. */
  beforeSession?: () => Promise<void>;
  /** Called after that session closed and the lock was released, however the attempt ended. */
  afterSession?: () => Promise<void>;
}

/** A channel's interactive login; one object per adapter keeps the attempts in progress. */
export interface ChannelLogin {
  /** Starts (or, without `force`, resumes) linking an account; resolves with the first QR code,
   *  or at once when the account is already linked and `force` is not set. */
  start(
    request: LoginAccount & LoginSessionHooks & { force: boolean; timeoutMs: number },
  ): Promise<LoginProgress>;
  /** Waits up to `timeoutMs` for the link, a newer QR code or the end of the attempt. */
  wait(request: { accountId: string; timeoutMs: number }): Promise<LoginProgress>;
  /** Ends an attempt in progress (its socket closes, its lock is released). */
  cancel(accountId: string): Promise<void>;
  /** Ends every attempt in progress (the gateway stopping). */
  cancelAll(): Promise<void>;
  /** Unlinks the account (telling the platform when a session can be opened) and removes its
   *  credentials; an account never linked says so. */
  logout(request: LoginAccount & LoginSessionHooks): Promise<LogoutOutcome>;
}
