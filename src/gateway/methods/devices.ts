// Device pairing over the gateway (OpenClaw's names and scope, operator.pairing; admin covers it):
// device.pair.list / approve / reject / remove and device.token.rotate / revoke, on the store the
// handshake writes. Least privilege: nobody approves more than they hold (every requested scope must
// be covered by the caller's), only an admin approves or manages a non-operator role, and a caller
// connected as a device without admin sees and manages only that device. Withdrawing a pairing or
// tokens closes the device's open connections; approvals and rejections broadcast
// `device.pair.resolved` (the handshake's requests broadcast `device.pair.requested`).

import { ErrorCodes, gatewayError } from "../../protocol/gateway/index.js";
import { approvedRoles, pairedView, pendingView, scopeCovered } from "../devices/index.js";
import type { PendingPairingRequest } from "../devices/types.js";
import {
  type CallOf,
  type ClientInfo,
  defineMethod,
  fail,
  type MethodResult,
  ok,
} from "./method.js";
import type { MethodDeps } from "./method-deps.js";

type Deps = Pick<MethodDeps, "devices" | "broadcast" | "logger" | "now">;
const USES = ["devices", "broadcast", "logger", "now"] as const;

const denied = (message: string): MethodResult =>
  fail(gatewayError(ErrorCodes.INVALID_REQUEST, message));

const isAdmin = (client: ClientInfo) => client.scopes.includes("operator.admin");

/** A non-admin caller connected as a device may manage only that device. */
const crossDevice = (client: ClientInfo, deviceId: string) =>
  !isAdmin(client) && client.deviceId !== undefined && client.deviceId !== deviceId;

/** Why `client` may not approve `request` (undefined: it may). */
function approvalRefusal(client: ClientInfo, request: PendingPairingRequest): string | undefined {
  if (crossDevice(client, request.deviceId)) return "device-ownership-mismatch";
  if (!isAdmin(client) && request.metadata.role !== "operator") {
    return "role-management-requires-admin";
  }
  const missing = request.metadata.scopes.find((scope) => !scopeCovered(scope, client.scopes));
  return missing === undefined ? undefined : `missing scope: ${missing}`;
}

async function list(call: CallOf<"device.pair.list">, deps: Deps) {
  const { client } = call;
  const mine = (deviceId: string) => !crossDevice(client, deviceId);
  const pending = (await deps.devices.store.listPending()).filter((r) => mine(r.deviceId));
  const paired = (await deps.devices.store.listPaired()).filter((d) => mine(d.deviceId));
  return ok({
    pending: pending.map(pendingView),
    paired: paired.map((d) => pairedView(d, deps.devices.connected(d.deviceId))),
  });
}

async function approve(call: CallOf<"device.pair.approve">, deps: Deps) {
  const { requestId } = call.params;
  const { store } = deps.devices;
  const request = (await store.listPending()).find((r) => r.requestId === requestId);
  if (!request) return denied("unknown requestId");
  const refusal = approvalRefusal(call.client, request);
  if (refusal) {
    deps.logger.warn(`device pairing approval denied request=${requestId} reason=${refusal}`);
    return denied(refusal.startsWith("missing scope") ? refusal : "device pairing approval denied");
  }
  // The request may have been refreshed (asking for more) since it was read: checked again inside.
  const device = await store.approve(requestId, (r) => !approvalRefusal(call.client, r));
  if (!device) return denied("device pairing approval denied (the request changed or expired)");
  deps.logger.info(
    { connId: call.client.connId },
    `device pairing approved device=${device.deviceId} role=${device.role}`,
  );
  deps.broadcast("device.pair.resolved", {
    requestId,
    deviceId: device.deviceId,
    decision: "approved",
    ts: deps.now(),
  });
  return ok({ requestId, device: pairedView(device, deps.devices.connected(device.deviceId)) });
}

async function reject(call: CallOf<"device.pair.reject">, deps: Deps) {
  const { requestId } = call.params;
  const { store } = deps.devices;
  const request = (await store.listPending()).find((r) => r.requestId === requestId);
  if (!request) return denied("unknown requestId");
  if (crossDevice(call.client, request.deviceId)) return denied("device pairing rejection denied");
  const rejected = await store.reject(requestId);
  if (!rejected) return denied("unknown requestId");
  deps.broadcast("device.pair.resolved", {
    requestId,
    deviceId: rejected.deviceId,
    decision: "rejected",
    ts: deps.now(),
  });
  return ok({ requestId, deviceId: rejected.deviceId });
}

/** The paired device a management call targets, or why the caller may not manage it. */
async function managed(params: {
  client: ClientInfo;
  deviceId: string;
  role: string | undefined;
  deps: Deps;
  what: string;
}) {
  const { client, deviceId, role, deps, what } = params;
  if (crossDevice(client, deviceId)) return { error: denied(`${what} denied`) };
  const device = await deps.devices.store.getPaired(deviceId);
  if (!device || device.revokedAt !== undefined) return { error: denied("unknown deviceId") };
  const roles = approvedRoles(device);
  if (role !== undefined && !roles.includes(role))
    return { error: denied("unknown deviceId or role") };
  const nonOperator = (role !== undefined ? [role] : roles).some((r) => r !== "operator");
  if (nonOperator && !isAdmin(client)) return { error: denied(`${what} denied`) };
  return { device };
}

async function remove(call: CallOf<"device.pair.remove">, deps: Deps) {
  const { deviceId } = call.params;
  const target = await managed({
    client: call.client,
    deviceId,
    role: undefined,
    deps,
    what: "device pairing removal",
  });
  if (target.error) return target.error;
  const device = await deps.devices.store.revoke(deviceId);
  if (!device) return denied("unknown deviceId");
  const closing = deps.devices.disconnect(deviceId, "device pairing removed");
  deps.logger.info(`device pairing removed device=${deviceId} (closing ${closing} connections)`);
  return ok({ deviceId, revokedAtMs: device.revokedAt ?? deps.now() });
}

async function rotate(call: CallOf<"device.token.rotate">, deps: Deps) {
  const { deviceId, role, scopes } = call.params;
  const target = await managed({
    client: call.client,
    deviceId,
    role,
    deps,
    what: "device token rotation",
  });
  if (target.error) return target.error;
  const { device } = target;
  // A token carries the device's approval; asked scopes must lie within it and within the caller's.
  const outside = (scopes ?? []).find(
    (s) => !scopeCovered(s, device.scopes) || !scopeCovered(s, call.client.scopes),
  );
  if (outside !== undefined) return denied(`device token rotation denied: scope ${outside}`);
  const issued = await deps.devices.store.rotateToken(deviceId);
  if (!issued) return denied("unknown deviceId");
  deps.devices.disconnect(deviceId, "device token rotated");
  deps.logger.info(`device token rotated device=${deviceId} role=${role}`);
  const inBand = call.client.deviceId === deviceId;
  return ok({
    deviceId,
    role,
    ...(inBand ? { token: issued.token } : {}),
    scopes: device.scopes,
    rotatedAtMs: issued.issuedAt,
    tokenDelivery: inBand ? "in-band" : "withheld-cross-device",
  });
}

async function revoke(call: CallOf<"device.token.revoke">, deps: Deps) {
  const { deviceId, role } = call.params;
  const target = await managed({
    client: call.client,
    deviceId,
    role,
    deps,
    what: "device token revocation",
  });
  if (target.error) return target.error;
  const revokedAtMs = await deps.devices.store.revokeTokens(deviceId);
  if (revokedAtMs === undefined) return denied("unknown deviceId");
  deps.devices.disconnect(deviceId, "device token revoked");
  deps.logger.info(`device token revoked device=${deviceId} role=${role}`);
  return ok({ deviceId, role, revokedAtMs });
}

const scope = "operator.pairing" as const;

/** The device pairing method group (operator.pairing, as OpenClaw's). */
export const deviceMethods = [
  defineMethod({ name: "device.pair.list", scope, uses: USES, handler: list }),
  defineMethod({ name: "device.pair.approve", scope, uses: USES, handler: approve }),
  defineMethod({ name: "device.pair.reject", scope, uses: USES, handler: reject }),
  defineMethod({ name: "device.pair.remove", scope, uses: USES, handler: remove }),
  defineMethod({ name: "device.token.rotate", scope, uses: USES, handler: rotate }),
  defineMethod({ name: "device.token.revoke", scope, uses: USES, handler: revoke }),
];
