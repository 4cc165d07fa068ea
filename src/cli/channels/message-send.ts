// `pincer message send --channel C [--account A] --to TARGET -m TEXT [--media URL]`: sends through
// the running gateway's `send` (same delivery path as agent replies), with a fresh idempotency key.
import { randomUUID } from "node:crypto";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson, printLine } from "../command-context.js";
import { connectForCli, requestFailure, resolveGatewayTarget } from "../gateway-client-options.js";
import type { messageSendOptions } from "./commands.js";

/** Sends one message; prints the platform message id(s). */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof messageSendOptions>,
): Promise<number> {
  const to = opts.to ?? opts.target;
  if (!to) throw new CliError("--to is required", ExitCode.usage);
  if (!opts.message && !opts.media)
    throw new CliError("-m/--message or --media is required", ExitCode.usage);
  const target = resolveGatewayTarget(ctx, opts);
  const client = await connectForCli(ctx, target, { hint: "start it with: pincer gateway run" });
  let result: {
    messageId?: string;
    messageIds?: string[];
    channel?: string;
    accountId?: string;
    queued?: string[];
  };
  try {
    result = await client.request("send", {
      to,
      channel: opts.channel,
      ...(opts.account ? { accountId: opts.account } : {}),
      ...(opts.message ? { message: opts.message } : {}),
      ...(opts.media ? { mediaUrl: opts.media } : {}),
      ...(opts.threadId ? { threadId: opts.threadId } : {}),
      ...(opts.replyTo ? { replyToId: opts.replyTo } : {}),
      idempotencyKey: randomUUID(),
    });
  } catch (err) {
    throw requestFailure(err, "send");
  } finally {
    await client.close();
  }
  if (opts.json) printJson(ctx, result);
  else
    printLine(
      ctx,
      `sent via ${result.channel}/${result.accountId}: ${(result.messageIds ?? []).join(", ")}`,
    );
  // The platform asked to wait: those parts go out later (see `pincer channels failures`).
  if (!opts.json && result.queued?.length)
    printLine(ctx, `queued for retry: ${result.queued.join(", ")}`);
  return 0;
}
