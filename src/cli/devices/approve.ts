// `pincer devices approve <requestId> | --latest [--json]` (OpenClaw's shapes): pairs the device of a
// pending request (a unique prefix of the request id is enough; `--latest` takes the newest request), or
// grants a paired device the role/scopes of its upgrade request. The device's next connect receives a
// device token; its tokens then carry the approved access.
import { approvedRoles } from "../../gateway/devices/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson, printLine } from "../command-context.js";
import type { approveOptions } from "./commands.js";
import { findPendingRequest, formatAccess, openDevicesStore, shortId } from "./common.js";

/** The request to approve: the id given, or with `--latest` the newest pending one (never both). */
async function chooseRequest(ctx: CliContext, args: string[], latest: boolean | undefined) {
  const wanted = args[0]?.trim() ?? "";
  if (wanted && latest)
    throw new CliError("give a request id or --latest, not both", ExitCode.usage);
  if (!latest) {
    if (!wanted)
      throw new CliError(
        "give the request id to approve (see pincer devices list), or --latest for the newest",
        ExitCode.usage,
      );
    return findPendingRequest(ctx, wanted);
  }
  const store = openDevicesStore(ctx);
  const request = (await store.listPending()).at(-1);
  if (!request) throw new CliError("no pending pairing requests to approve");
  return { store, requestId: request.requestId, request };
}

/** Approves one pending pairing request; unknown or expired ids exit 1. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof approveOptions>,
): Promise<number> {
  const { store, requestId, request } = await chooseRequest(ctx, args, opts.latest);
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
