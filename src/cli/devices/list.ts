// `pincer devices list [--json]`: paired devices (with the role and scopes they were approved for) and
// pending pairing requests (why: not paired, revoked, metadata changed, role or scope upgrade; what they
// ask for next to what they have). Never prints tokens (not even their hashes).
import {
  approvedRoles,
  type PairedDevice,
  type PendingPairingRequest,
} from "../../gateway/devices/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine, style } from "../command-context.js";
import { formatAge } from "../time-format.js";
import type { listOptions } from "./commands.js";
import { formatAccess, openDevicesStore, shortId } from "./common.js";

function pairedRow(device: PairedDevice) {
  const active = device.tokens.filter((t) => t.revokedAt === undefined);
  const lastUsed = Math.max(0, ...device.tokens.map((t) => t.lastUsedAt ?? 0));
  return {
    deviceId: device.deviceId,
    status: device.revokedAt === undefined ? "paired" : "revoked",
    displayName: device.displayName ?? null,
    platform: device.platform,
    deviceFamily: device.deviceFamily,
    clientId: device.clientId,
    clientMode: device.clientMode,
    role: device.role,
    roles: approvedRoles(device),
    scopes: device.scopes,
    approvedAt: device.approvedAt,
    approvedBy: device.approvedBy,
    revokedAt: device.revokedAt ?? null,
    activeTokens: active.length,
    lastUsedAt: lastUsed > 0 ? lastUsed : null,
  };
}

function pendingRow(request: PendingPairingRequest) {
  return {
    requestId: request.requestId,
    deviceId: request.deviceId,
    ...request.metadata,
    displayName: request.metadata.displayName ?? null,
    reason: request.reason ?? "not-paired",
    approvedRoles: request.approved?.roles ?? [],
    approvedScopes: request.approved?.scopes ?? [],
    remoteAddress: request.remoteAddress,
    requestedAt: request.requestedAt,
  };
}

function printTable(ctx: CliContext, rows: string[][]): void {
  const s = style(ctx);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  rows.forEach((cells, index) => {
    const line = `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")}`;
    printLine(ctx, index === 0 ? s.dim(line) : line);
  });
}

/** Lists paired devices and pending requests of the state dir. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof listOptions>): Promise<number> {
  const store = openDevicesStore(ctx);
  const paired = (await store.listPaired()).map(pairedRow);
  const pending = (await store.listPending()).map(pendingRow);
  if (opts.json) {
    printJson(ctx, { dir: store.dir, paired, pending });
    return 0;
  }
  const s = style(ctx);
  const now = Date.now();
  printLine(ctx, s.bold(`Pending pairing requests (${pending.length})`));
  if (pending.length === 0) printLine(ctx, s.dim("  none"));
  else {
    printTable(ctx, [
      ["REQUEST", "DEVICE", "CLIENT", "PLATFORM", "REASON", "ASKS FOR", "HAS", "FROM", "REQUESTED"],
      ...pending.map((r) => [
        r.requestId,
        shortId(r.deviceId),
        r.displayName ? `${r.clientId} (${r.displayName})` : r.clientId,
        r.platform || "-",
        r.reason,
        formatAccess([r.role], r.scopes),
        r.approvedRoles.length > 0 ? formatAccess(r.approvedRoles, r.approvedScopes) : "-",
        r.remoteAddress,
        formatAge(Math.max(0, now - r.requestedAt)),
      ]),
    ]);
    printLine(ctx, s.dim("  approve with: pincer devices approve <request>"));
  }
  printLine(ctx, s.bold(`Paired devices (${paired.length})`));
  if (paired.length === 0) {
    printLine(ctx, s.dim("  none"));
    return 0;
  }
  printTable(ctx, [
    ["DEVICE", "STATUS", "CLIENT", "PLATFORM", "ACCESS", "APPROVED", "TOKENS", "LAST USED"],
    ...paired.map((d) => [
      shortId(d.deviceId),
      d.status,
      d.displayName ? `${d.clientId} (${d.displayName})` : d.clientId,
      [d.platform, d.deviceFamily].filter(Boolean).join("/") || "-",
      formatAccess(d.roles, d.scopes),
      `${formatAge(Math.max(0, now - d.approvedAt))} by ${d.approvedBy}`,
      String(d.activeTokens),
      d.lastUsedAt ? formatAge(Math.max(0, now - d.lastUsedAt)) : "never",
    ]),
  ]);
  return 0;
}
