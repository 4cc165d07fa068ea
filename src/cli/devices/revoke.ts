// `pincer devices revoke --device <id> [--role <role>] [--json]` (OpenClaw's shape; the positional
// `revoke <id>` still works). Without `--role` (or for a device's only role) it unpairs the device and
// revokes all its tokens: it must be approved by an operator again, even over loopback. With `--role`
// it withdraws that role only: the device's tokens stop granting it, asking for it again is a role
// upgrade to approve. A unique prefix of the device id is enough.
import { approvedRoles } from "../../gateway/devices/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson, printLine } from "../command-context.js";
import type { revokeOptions } from "./commands.js";
import { matchId, openDevicesStore, shortId } from "./common.js";

/** `--device` or the positional id; both must agree. */
function wantedDevice(positional: string | undefined, flag: string | undefined): string {
  const a = positional?.trim() || undefined;
  const b = flag?.trim() || undefined;
  if (a && b && a !== b)
    throw new CliError(`two devices given: "${a}" and --device ${b}`, ExitCode.usage);
  const wanted = a ?? b;
  if (!wanted)
    throw new CliError("--device <id> is required (see pincer devices list)", ExitCode.usage);
  return wanted;
}

/** Revokes one paired device, or one role of it; unknown ids and roles it lacks exit 1. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof revokeOptions>,
): Promise<number> {
  const store = openDevicesStore(ctx);
  const paired = await store.listPaired();
  const deviceId = matchId({
    ids: paired.map((d) => d.deviceId),
    wanted: wantedDevice(args[0], opts.device),
    what: "device",
  });
  const current = paired.find((d) => d.deviceId === deviceId)!;
  const role = opts.role?.trim();
  const roles = approvedRoles(current);
  if (role && (current.revokedAt !== undefined || !roles.includes(role))) {
    const has = current.revokedAt !== undefined ? "it is revoked" : `it has ${roles.join(", ")}`;
    throw new CliError(`device ${shortId(deviceId)} is not approved for role ${role} (${has})`);
  }
  if (role && roles.length > 1) {
    const device = await store.revokeRole(deviceId, role);
    if (!device) throw new Error(`device ${deviceId} changed while revoking role ${role}`);
    if (opts.json) {
      printJson(ctx, { revoked: true, deviceId, role, roles: approvedRoles(device) });
      return 0;
    }
    printLine(
      ctx,
      `Revoked role ${role} of device ${shortId(deviceId)}: it keeps ${approvedRoles(device).join(", ")}; asking for ${role} again needs approval`,
    );
    return 0;
  }
  const device = await store.revoke(deviceId);
  if (!device) throw new Error(`device ${deviceId} vanished while revoking it`);
  if (opts.json) {
    printJson(ctx, {
      revoked: true,
      deviceId,
      ...(role ? { role } : {}),
      revokedAt: device.revokedAt ?? null,
    });
    return 0;
  }
  const why = role ? ` (${role} was its only role)` : "";
  printLine(
    ctx,
    `Revoked device ${shortId(deviceId)}${why}: its tokens no longer work; it must be approved again`,
  );
  return 0;
}
