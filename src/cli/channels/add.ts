// `pincer channels add --channel C [--account ID] --token-stdin`: writes
// `channels.<C>.accounts.<ID>.botToken` with the comment-preserving, validated config edit.

import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode } from "../command-context.js";
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
