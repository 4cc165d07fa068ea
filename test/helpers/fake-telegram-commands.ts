// The fake Telegram's command menu methods, checked as Telegram checks them: `setMyCommands`
// refuses more than 100 commands (BOT_COMMANDS_TOO_MUCH), a name outside 1-32 of [a-z0-9_] or a
// description outside 1-256 characters (BOT_COMMAND_INVALID), and replaces the menu otherwise;
// `deleteMyCommands` empties it.

/** One menu entry as the fake stores it. */
export interface FakeMenuCommand {
  command: string;
  description: string;
}

/** What a menu method answers: the new menu, or Telegram's 400 description. */
export type MenuAnswer = { ok: true; menu: FakeMenuCommand[] } | { ok: false; description: string };

/** Applies `setMyCommands` params (JSON `commands`, already decoded) like Telegram. */
export function setMyCommands(params: Record<string, unknown>): MenuAnswer {
  const commands = params.commands;
  if (!Array.isArray(commands)) return { ok: false, description: "Bad Request: commands required" };
  if (commands.length > 100)
    return { ok: false, description: "Bad Request: BOT_COMMANDS_TOO_MUCH" };
  const menu: FakeMenuCommand[] = [];
  for (const entry of commands as Array<Record<string, unknown>>) {
    const command = String(entry?.command ?? "").replace(/^\//, "");
    const description = String(entry?.description ?? "");
    const valid =
      /^[a-z0-9_]{1,32}$/.test(command) && description.length >= 1 && description.length <= 256;
    if (!valid) return { ok: false, description: "Bad Request: BOT_COMMAND_INVALID" };
    menu.push({ command, description });
  }
  return { ok: true, menu };
}
