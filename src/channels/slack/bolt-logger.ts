// Bolt's logger interface over the account's logger: Bolt's and the Socket Mode client's chatter
// (info and debug) go to debug, their warnings and errors to warn with a `bolt` field, so every
// line still names the account.
import type { Logger } from "../index.js";

/** The subset of `@slack/logger`'s Logger that Bolt and the Socket Mode client call. */
export interface BoltLogger {
  debug(...msg: unknown[]): void;
  info(...msg: unknown[]): void;
  warn(...msg: unknown[]): void;
  error(...msg: unknown[]): void;
  setLevel(level: unknown): void;
  getLevel(): string;
  setName(name: string): void;
}

const text = (msg: unknown[]) =>
  msg.map((part) => (part instanceof Error ? part.message : String(part))).join(" ");

/** A Bolt logger writing to `log`. */
export function boltLogger(log: Logger): BoltLogger {
  return {
    debug: (...msg) => log.debug({ bolt: text(msg) }, "slack: bolt"),
    info: (...msg) => log.debug({ bolt: text(msg) }, "slack: bolt"),
    warn: (...msg) => log.warn({ bolt: text(msg) }, "slack: bolt warning"),
    error: (...msg) => log.warn({ bolt: text(msg) }, "slack: bolt error"),
    setLevel: () => {},
    // Bolt asks for the level to decide whether to build verbose debug strings: it gets "info".
    getLevel: () => "info",
    setName: () => {},
  };
}
