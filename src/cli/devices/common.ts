// Shared by the `pincer devices …` commands: the state dir's pairing store and id lookups that accept a
// unique prefix (device ids are 64 hex characters; nobody types them whole).
import { resolveStatePaths } from "../../config/paths.js";
import {
  type DeviceStore,
  openDeviceStore,
  type PendingPairingRequest,
  pgDeviceDocumentsFor,
} from "../../gateway/devices/index.js";
import { type CliContext, CliError } from "../command-context.js";
import { loadForCli } from "../load.js";

/** Opens `<stateDir>/devices` for the active profile (PostgreSQL with cluster.store), on the wall clock. */
export function openDevicesStore(ctx: CliContext): DeviceStore {
  const { stateDir } = resolveStatePaths({
    env: ctx.env,
    ...(ctx.profile ? { profile: ctx.profile } : {}),
  });
  const cluster = loadForCli(ctx, { requireValid: false }).config.cluster?.store;
  return openDeviceStore({
    stateDir,
    clock: { now: () => Date.now() },
    ...(cluster?.kind === "postgres" ? { documents: pgDeviceDocumentsFor(cluster) } : {}),
  });
}

/** Picks the one id equal to `wanted` or starting with it; a clear error when none or several match. */
export function matchId(params: { ids: string[]; wanted: string; what: string }): string {
  const wanted = params.wanted.trim().toLowerCase();
  if (params.ids.includes(wanted)) return wanted;
  const matches = wanted === "" ? [] : params.ids.filter((id) => id.startsWith(wanted));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new CliError(
      `${params.what} "${params.wanted}" is ambiguous: ${matches.map(shortId).join(", ")}`,
    );
  }
  throw new CliError(`unknown ${params.what} "${params.wanted}" (see pincer devices list)`);
}

/** The first 12 characters of an id, for tables and messages. */
export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 12)}…` : id;
}

/** Opens the store and resolves `wanted` (a request id or a unique prefix) among pending requests. */
export async function findPendingRequest(
  ctx: CliContext,
  wanted: string,
): Promise<{ store: DeviceStore; requestId: string; request: PendingPairingRequest }> {
  const store = openDevicesStore(ctx);
  const pending = await store.listPending();
  const requestId = matchId({
    ids: pending.map((r) => r.requestId),
    wanted,
    what: "pairing request",
  });
  const request = pending.find((r) => r.requestId === requestId)!;
  return { store, requestId, request };
}

/** `role: scope,scope` (roles joined by `+`), `-` for no scopes: what a device has or asks for. */
export function formatAccess(roles: readonly string[], scopes: readonly string[]): string {
  return `${roles.join("+")}: ${scopes.length > 0 ? scopes.join(",") : "-"}`;
}
