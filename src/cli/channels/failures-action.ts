// `pincer channels failures retry <id...>|--all` and `… drop <id...>|--all`: re-queue dead letters
// (sent again by the running gateway) or remove them for good, through `channels.failures.retry` /
// `channels.failures.drop`. Nothing changes when any id is refused.

import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson, printLine } from "../command-context.js";
import { connectForCli, requestFailure, resolveGatewayTarget } from "../gateway-client-options.js";
import type { failuresActionOptions } from "./commands.js";

type Action = "retry" | "drop";

async function act(
  action: Action,
  ctx: CliContext,
  { args, opts }: InputOf<typeof failuresActionOptions>,
): Promise<number> {
  const ids = args.flat().filter((id) => id !== "");
  if (opts.all && ids.length > 0) throw new CliError("give ids or --all, not both", ExitCode.usage);
  if (!opts.all && ids.length === 0)
    throw new CliError(
      `an id (see: pincer channels failures) or --all is required`,
      ExitCode.usage,
    );
  const target = resolveGatewayTarget(ctx, opts);
  const client = await connectForCli(ctx, target, { hint: "start it with: pincer gateway run" });
  const method = `channels.failures.${action}`;
  let result: { requeued?: string[]; dropped?: string[] };
  try {
    result = await client.request(method, opts.all ? { all: true } : { ids });
  } catch (err) {
    throw requestFailure(err, method);
  } finally {
    await client.close();
  }
  if (opts.json) {
    printJson(ctx, result);
    return 0;
  }
  const done = (action === "retry" ? result.requeued : result.dropped) ?? [];
  const verb = action === "retry" ? "requeued" : "dropped";
  printLine(ctx, done.length ? `${verb}: ${done.join(", ")}` : `nothing to ${action}`);
  return 0;
}

/** `retry`: puts dead letters back in the queue. */
export const retry = (ctx: CliContext, input: InputOf<typeof failuresActionOptions>) =>
  act("retry", ctx, input);

/** `drop`: removes dead letters (or waiting parts) for good. */
export const drop = (ctx: CliContext, input: InputOf<typeof failuresActionOptions>) =>
  act("drop", ctx, input);
