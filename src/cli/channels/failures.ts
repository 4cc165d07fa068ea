// `pincer channels failures [list] [--json]`: the delivery queue's parts that need an operator (dead
// letters, uncertain ones) or are waiting for a retry, from the running gateway's
// `channels.failures.list`; with the gateway down, read from the state dir's queue file.
import {
  type DeliveryEntry,
  listDeliveryEntries,
} from "../../channels/delivery/delivery-entries.js";
import { readDeliveryState } from "../../channels/delivery/delivery-store.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, printJson, printLine, style } from "../command-context.js";
import { connectForCli, requestFailure, resolveGatewayTarget } from "../gateway-client-options.js";
import type { failuresListOptions } from "./commands.js";

const PREVIEW = 60;

function preview(entry: DeliveryEntry): string {
  const text = entry.text ?? entry.media?.join(" ") ?? "";
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > PREVIEW ? `${line.slice(0, PREVIEW - 1)}…` : line;
}

function entryLine(ctx: CliContext, entry: DeliveryEntry): string {
  const s = style(ctx);
  const state =
    entry.state === "uncertain"
      ? s.red("uncertain")
      : entry.state === "failed"
        ? s.red("failed")
        : s.yellow(entry.state);
  const where = `${entry.channel}/${entry.accountId} ${entry.peer.kind}:${entry.peer.id}${entry.threadId ? `#${entry.threadId}` : ""}`;
  const parts = [
    entry.id,
    state,
    where,
    `part ${entry.part}/${entry.parts}`,
    `${entry.attempts} tries`,
  ];
  if (entry.nextAttemptAt) parts.push(`next ${new Date(entry.nextAttemptAt).toISOString()}`);
  if (entry.error) parts.push(s.dim(entry.error));
  return `  ${parts.join("  ")}\n      ${JSON.stringify(preview(entry))}`;
}

/** Lists the entries (exit 0; an empty queue prints "none"). */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof failuresListOptions>,
): Promise<number> {
  const target = resolveGatewayTarget(ctx, opts);
  let entries: DeliveryEntry[];
  let offline = false;
  try {
    const client = await connectForCli(ctx, target);
    try {
      entries = (await client.request<{ entries: DeliveryEntry[] }>("channels.failures.list", {}))
        .entries;
    } catch (err) {
      throw requestFailure(err, "channels.failures.list");
    } finally {
      await client.close();
    }
  } catch (err) {
    if (!(err instanceof CliError) || !err.message.startsWith("gateway not reachable")) throw err;
    // Nothing sends from the queue while the gateway is down: its file is the truth.
    entries = listDeliveryEntries(readDeliveryState(target.loaded.paths.stateDir).state);
    offline = true;
  }
  if (opts.json) {
    printJson(ctx, { entries, ...(offline ? { gateway: "not running" } : {}) });
    return 0;
  }
  const s = style(ctx);
  if (offline) printLine(ctx, s.yellow(`gateway not running (${target.url}); from the state dir:`));
  printLine(ctx, s.bold(`Deliveries needing attention or waiting (${entries.length})`));
  if (entries.length === 0) printLine(ctx, s.dim("  none"));
  for (const entry of entries) printLine(ctx, entryLine(ctx, entry));
  if (entries.some((e) => e.state === "failed" || e.state === "uncertain")) {
    printLine(
      ctx,
      s.dim(
        "  retry with: pincer channels failures retry <id>|--all (an uncertain one may arrive twice)",
      ),
    );
    printLine(ctx, s.dim("  drop with:  pincer channels failures drop <id>|--all"));
  }
  return 0;
}
