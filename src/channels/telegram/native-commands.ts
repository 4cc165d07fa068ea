// The bot's "/" command menu: on each account start, `setMyCommands` with the commands the gateway
// answers (when `commands.native` is true or "auto": Telegram has a menu), or `deleteMyCommands`
// when it is false (a menu an earlier start registered would offer commands nobody wants offered).
// Telegram's limits are applied here: names 1–32 of [a-z0-9_], descriptions 1–256, at most 100
// commands; a command that cannot be listed is skipped and logged. A failed call is logged and the
// bot runs on: the menu is a convenience, typed commands work without it.
import type { Api } from "grammy";
import type { ChannelCommandMenu, ChannelMenuCommand, Logger } from "../index.js";
import { toGrammySignal } from "./grammy-signal.js";

/** Most commands one `setMyCommands` call may carry. */
export const TELEGRAM_MAX_MENU_COMMANDS = 100;
/** Longest command description Telegram accepts. */
export const TELEGRAM_MAX_COMMAND_DESCRIPTION = 256;

const COMMAND_NAME = /^[a-z0-9_]{1,32}$/;

/** One menu entry in Telegram's shape. */
export interface TelegramBotCommand {
  command: string;
  description: string;
}

/** The menu entries Telegram accepts from `commands` (in order, first of a name wins), and the
 *  names left out with why. */
export function telegramMenuCommands(commands: readonly ChannelMenuCommand[]): {
  commands: TelegramBotCommand[];
  skipped: Array<{ name: string; reason: string }>;
} {
  const out: TelegramBotCommand[] = [];
  const skipped: Array<{ name: string; reason: string }> = [];
  const seen = new Set<string>();
  for (const entry of commands) {
    const name = entry.name.trim().replace(/^\//, "").toLowerCase();
    if (!COMMAND_NAME.test(name)) {
      skipped.push({ name: entry.name, reason: "not 1-32 characters of a-z, 0-9, _" });
      continue;
    }
    if (seen.has(name)) continue;
    if (out.length >= TELEGRAM_MAX_MENU_COMMANDS) {
      skipped.push({ name, reason: `past Telegram's ${TELEGRAM_MAX_MENU_COMMANDS}-command limit` });
      continue;
    }
    seen.add(name);
    const text = entry.description.replace(/\s+/g, " ").trim() || `/${name}`;
    const description =
      text.length <= TELEGRAM_MAX_COMMAND_DESCRIPTION
        ? text
        : `${text.slice(0, TELEGRAM_MAX_COMMAND_DESCRIPTION - 1)}…`;
    out.push({ command: name, description });
  }
  return { commands: out, skipped };
}

/** Inputs of {@link syncTelegramCommandMenu}. */
export interface SyncTelegramCommandMenuParams {
  api: Api;
  /** Absent: the gateway answers no commands, so the menu is left as it is. */
  menu: ChannelCommandMenu | undefined;
  log: Logger;
  signal: AbortSignal;
  accountId: string;
}

/** Registers or clears the menu once; never rejects (a failure is logged, the bot runs on). */
export async function syncTelegramCommandMenu(
  params: SyncTelegramCommandMenuParams,
): Promise<void> {
  const { api, menu, log, signal, accountId } = params;
  if (!menu) return;
  try {
    if (menu.native === false) {
      await api.deleteMyCommands(undefined, toGrammySignal(signal));
      log.info({ accountId }, "telegram: command menu cleared");
      return;
    }
    const { commands, skipped } = telegramMenuCommands(menu.commands);
    if (skipped.length > 0)
      log.warn({ accountId, skipped }, "telegram: commands left out of the menu");
    await api.setMyCommands(commands, undefined, toGrammySignal(signal));
    log.info({ accountId, commands: commands.length }, "telegram: command menu registered");
  } catch (err) {
    if (signal.aborted) return;
    const error = err instanceof Error ? err.message : String(err);
    log.warn({ accountId, error }, "telegram: command menu not updated");
  }
}
