// `pincer devices approve <requestId> [--json]`: pairs the device of a pending request (a unique prefix
// of the request id is enough), or grants a paired device the role/scopes of its upgrade request.
// The device's next connect receives a device token; its tokens then carry the approved access.
import { approvedRoles } from "../gateway/devices/index.js";
import { type CliContext, printJson, printLine } from "./context.js";
import { findPendingRequest, formatAccess, shortId } from "./devices-common.js";
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
  const { store, requestId, request } = await findPendingRequest(ctx, args[0] ?? "");
  const device = await store.approve(requestId);
  if (!device) throw new Error(`pairing request ${requestId} vanished while approving it`);
  const reason = request.reason ?? "not-paired";
  if (opts.json) {
    const { tokens: _tokens, ...rest } = device;
    printJson(ctx, { approved: true, requestId, reason, device: rest });
    return 0;
  }
  const who = device.displayName ? ` (${device.displayName})` : "";
  const what =
    reason === "role-upgrade" || reason === "scope-upgrade" ? `${reason} of device` : "device";
  printLine(
    ctx,
    `Approved ${what} ${shortId(device.deviceId)}${who}: ${device.clientId}, ${device.platform || "unknown platform"}, ${formatAccess(approvedRoles(device), device.scopes)}`,
  );
  return 0;
}
