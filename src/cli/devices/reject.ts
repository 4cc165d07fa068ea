// `pincer devices reject <requestId> [--json]`: drops a pending pairing request (a unique prefix of the
// id is enough). The device may ask again on its next connect.

import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine } from "../command-context.js";
import type { rejectOptions } from "./commands.js";
import { findPendingRequest, shortId } from "./common.js";

/** Rejects one pending pairing request; unknown or expired ids exit 1. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof rejectOptions>,
): Promise<number> {
  const { store, requestId } = await findPendingRequest(ctx, args[0] ?? "");
  const request = await store.reject(requestId);
  if (!request) throw new Error(`pairing request ${requestId} vanished while rejecting it`);
  if (opts.json) {
    printJson(ctx, { rejected: true, requestId, deviceId: request.deviceId });
    return 0;
  }
  printLine(ctx, `Rejected pairing request ${requestId} (device ${shortId(request.deviceId)})`);
  return 0;
}
