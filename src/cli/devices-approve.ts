// `pincer devices approve <requestId> [--json]`: pairs the device of a pending request (a unique prefix
// of the request id is enough). The device's next connect receives a device token.
import { type CliContext, printJson, printLine } from "./context.js";
import { findPendingRequest, shortId } from "./devices-common.js";
import type { CommandInput } from "./program.js";

/** Options of `pincer devices approve`. */
export interface DevicesApproveOptions {
  json?: boolean;
}

/** Approves one pending pairing request; unknown or expired ids exit 1. */
export async function run(
  ctx: CliContext,
  { args, opts }: CommandInput<DevicesApproveOptions>,
): Promise<number> {
  const { store, requestId } = await findPendingRequest(ctx, args[0] ?? "");
  const device = await store.approve(requestId);
  if (!device) throw new Error(`pairing request ${requestId} vanished while approving it`);
  if (opts.json) {
    const { tokens: _tokens, ...rest } = device;
    printJson(ctx, { approved: true, requestId, device: rest });
    return 0;
  }
  const who = device.displayName ? ` (${device.displayName})` : "";
  printLine(
    ctx,
    `Approved device ${shortId(device.deviceId)}${who}: ${device.clientId}, ${device.platform || "unknown platform"}, role ${device.role}`,
  );
  return 0;
}
