// `pincer pairing approve <code> | <channel> <code> [--channel C] [--account A] [--notify] [--json]`
// (OpenClaw's shapes): the sender joins the account's allowFrom store; a running gateway reads it on the
// sender's next message (no restart; with cluster.store within its 2 s refresh). `--notify` tells the
// sender through the gateway.

import type { InputOf } from "../command.js";
import { type CliContext, CliError, printJson, printLine } from "../command-context.js";
import type { approveOptions } from "./commands.js";
import { notifyApprovedSender } from "./notify.js";
import { resolvePendingRequest } from "./resolve.js";

/** Approves one code; an unknown, expired or ambiguous code exits 1 with nothing changed. A failed
 * `--notify` keeps the approval and exits 1 saying why the sender was not told. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof approveOptions>,
): Promise<number> {
  const { store, request, done } = await resolvePendingRequest(ctx, {
    args,
    ...(opts.channel ? { channel: opts.channel } : {}),
    ...(opts.account ? { account: opts.account } : {}),
  });
  let approved: ReturnType<typeof store.approve>;
  try {
    approved = store.approve(request.channel, request.code);
  } finally {
    await done(); // written (PostgreSQL: flushed) before the gateway is asked to notify
  }
  if (!approved)
    throw new CliError(`pairing code ${request.code} expired or was taken while approving it`);
  const accountId = approved.meta.accountId;
  const notice = opts.notify
    ? await notifyApprovedSender(ctx, {
        channel: request.channel,
        accountId,
        to: approved.id,
        flags: opts,
      })
    : undefined;
  if (opts.json) {
    printJson(ctx, {
      approved: true,
      channel: request.channel,
      accountId,
      id: approved.id,
      code: approved.code,
      ...(notice ?? {}),
    });
  } else {
    printLine(ctx, `Approved ${request.channel} sender ${approved.id} (account ${accountId})`);
    if (notice?.notified) printLine(ctx, `Notified ${approved.id} via ${request.channel}`);
  }
  if (notice && !notice.notified) {
    ctx.stderr(`error: approved, but ${approved.id} was not notified: ${notice.error}\n`);
    return 1;
  }
  return 0;
}
