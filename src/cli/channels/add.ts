// `pincer channels add --channel C [--account ID] --token-stdin`: writes
// `channels.<C>.accounts.<ID>.botToken` with the comment-preserving, validated config edit.
// WhatsApp has no bot token: `add` creates the account entry (left as it is when it exists) and
// points at `channels login`, which links a WhatsApp Web account by QR code.

import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printLine } from "../command-context.js";
import { applyConfigEdits } from "../config/edit.js";
import type { addOptions } from "./commands.js";

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

/** Adds (or replaces) one account's bot token. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof addOptions>): Promise<number> {
  const channel = opts.channel.trim().toLowerCase();
  const account = (opts.account ?? "default").trim();
  if (!ID.test(channel))
    throw new CliError(`--channel "${opts.channel}": expected a channel id`, ExitCode.usage);
  if (!ID.test(account))
    throw new CliError(`--account "${account}": expected letters, digits, - or _`, ExitCode.usage);
  if (channel === "whatsapp") return addWhatsAppAccount(ctx, { ...opts, account });
  if (!opts.tokenStdin)
    throw new CliError(
      "--token-stdin is required (the token is never taken from argv)",
      ExitCode.usage,
    );
  const token = (await ctx.readStdin()).trim();
  if (token === "") throw new CliError("no token on standard input", ExitCode.usage);
  return applyConfigEdits(ctx, {
    edits: [{ op: "set", path: `channels.${channel}.accounts.${account}.botToken`, value: token }],
    json: opts.json,
    summary: `added ${channel} account ${account}`,
  });
}

/** A WhatsApp account entry, to be linked next (`channels login`); a token is refused, saying why. */
function addWhatsAppAccount(
  ctx: CliContext,
  opts: { account: string; tokenStdin?: boolean; json?: boolean },
): number {
  const { account } = opts;
  const login = `pincer channels login --channel whatsapp --account ${account}`;
  if (opts.tokenStdin) {
    throw new CliError(
      `whatsapp accounts have no bot token: link a WhatsApp Web account by QR code with \`${login}\`, ` +
        'or give a Cloud API account transport: "cloud", phoneNumberId, accessToken, appSecret and verifyToken in the config',
      ExitCode.usage,
    );
  }
  const path = `channels.whatsapp.accounts.${account}`;
  const code = applyConfigEdits(ctx, {
    edits: (current) => {
      const accounts = (current as { channels?: { whatsapp?: { accounts?: unknown } } }).channels
        ?.whatsapp?.accounts;
      const exists = typeof accounts === "object" && accounts !== null && account in accounts;
      return exists ? [] : [{ op: "set", path, value: {} }];
    },
    json: opts.json,
    summary: `added whatsapp account ${account}`,
  });
  if (!opts.json) printLine(ctx, `link it: ${login}`);
  return code;
}
