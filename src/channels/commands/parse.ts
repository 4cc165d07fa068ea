// Recognizing an in-chat command: a message whose text starts with `/name` (an optional `:` after the
// name, arguments after that). Telegram groups address commands as `/name@BotName`: a suffix naming
// this account is accepted, one naming another bot makes the message not for us (see
// {@link otherBotAddressed}: the channel step drops it, whatever the name). A group
// message may start with this account's own @mention before the command. Names are case-insensitive.

/** A command found at the start of a message. */
export interface ParsedCommand {
  /** The name as typed, lowercased, without `/`, `@bot` suffix or `:`. */
  name: string;
  /** Everything after the name, trimmed (may be empty). */
  args: string;
}

/** Who this account is on its platform, for `@name` suffixes and leading mentions. */
export interface CommandAddressee {
  /** The account's own username (without `@`), when the platform has one. */
  selfUsername?: string;
}

const COMMAND = /^\/([a-z][a-z0-9_-]*)(?:@([a-z0-9_]+))?(?::|(?=\s)|$)/i;

function stripLeadingSelfMention(text: string, selfUsername: string | undefined): string {
  if (!selfUsername) return text;
  const mention = new RegExp(`^@${selfUsername.replace(/[^a-z0-9_]/gi, "")}\\b[\\s,:]*`, "i");
  return text.replace(mention, "");
}

/** The other bot a message's leading `/name@bot` addresses (lowercased), or undefined when the
 *  text is no such command or addresses this account. Such a message is not for us at all: it is
 *  neither answered nor handed to the model. */
export function otherBotAddressed(
  text: string,
  addressee: CommandAddressee = {},
): string | undefined {
  const match = COMMAND.exec(stripLeadingSelfMention(text.trim(), addressee.selfUsername));
  const target = match?.[2]?.toLowerCase();
  if (target === undefined) return undefined;
  return target === addressee.selfUsername?.toLowerCase() ? undefined : target;
}

/** The command at the start of `text`, or undefined when the text is not a command for us. */
export function parseCommand(
  text: string,
  addressee: CommandAddressee = {},
): ParsedCommand | undefined {
  const body = stripLeadingSelfMention(text.trim(), addressee.selfUsername);
  const match = COMMAND.exec(body);
  if (!match) return undefined;
  const [whole, name, target] = match;
  if (target !== undefined) {
    const self = addressee.selfUsername?.toLowerCase();
    if (self === undefined || target.toLowerCase() !== self) return undefined;
  }
  return { name: name!.toLowerCase(), args: body.slice(whole.length).trim() };
}
