// `pincer pairing reject <code> | <channel> <code> [--channel C] [--account A] [--json]`: drops a
// pending pairing code (the same shapes as `pairing approve`).

import type { InputOf } from "../command.js";
import { type CliContext, CliError, printJson, printLine } from "../command-context.js";
import type { rejectOptions } from "./commands.js";
import { resolvePendingRequest } from "./resolve.js";

/** Rejects one code; an unknown, expired or ambiguous code exits 1. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof rejectOptions>,
): Promise<number> {
  const { store, request, done } = await resolvePendingRequest(ctx, {
    args,
    ...(opts.channel ? { channel: opts.channel } : {}),
    ...(opts.account ? { account: opts.account } : {}),
  });
  let dropped: ReturnType<typeof store.reject>;
  try {
    dropped = store.reject(request.channel, request.code);
  } finally {
    await done();
  }
  if (!dropped) throw new CliError(`pairing code ${request.code} expired while rejecting it`);
  if (opts.json) printJson(ctx, { rejected: true, channel: request.channel, id: dropped.id });
  else
    printLine(
      ctx,
      `Rejected ${request.channel} pairing code ${dropped.code} (sender ${dropped.id})`,
    );
  return 0;
}
