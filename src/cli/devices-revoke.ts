// `pincer devices revoke <deviceId> [--json]`: unpairs a device and revokes all its device tokens (a
// unique prefix of the id is enough). It must be approved by an operator again, even over loopback.
import { type CliContext, printJson, printLine } from "./context.js";
import { matchId, openDevicesStore, shortId } from "./devices-common.js";
import type { CommandInput } from "./program.js";

/** Options of `pincer devices revoke`. */
export interface DevicesRevokeOptions {
  json?: boolean;
}

/** Revokes one paired device; unknown ids exit 1. */
export async function run(
  ctx: CliContext,
  { args, opts }: CommandInput<DevicesRevokeOptions>,
): Promise<number> {
  const store = openDevicesStore(ctx);
  const paired = await store.listPaired();
  const deviceId = matchId({
    ids: paired.map((d) => d.deviceId),
    wanted: args[0] ?? "",
    what: "device",
  });
  const device = await store.revoke(deviceId);
  if (!device) throw new Error(`device ${deviceId} vanished while revoking it`);
  if (opts.json) {
    printJson(ctx, { revoked: true, deviceId, revokedAt: device.revokedAt ?? null });
    return 0;
  }
  printLine(
    ctx,
    `Revoked device ${shortId(deviceId)}: its tokens no longer work; it must be approved again`,
  );
  return 0;
}
