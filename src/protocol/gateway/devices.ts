// Params of the device pairing methods (`device.pair.*`, `device.token.*`), OpenClaw's names and
// shapes: an operator lists, approves, rejects and removes device pairings and rotates or revokes a
// device's tokens over the gateway (the host CLI reads the same store directly).
import { Type } from "typebox";

const NonEmptyString = Type.String({ minLength: 1 });
const closed = { additionalProperties: false } as const;

/** `device.pair.list`: no params. */
export const DevicePairListParamsSchema = Type.Object({}, closed);
/** `device.pair.approve` / `device.pair.reject`: one pending request. */
export const DevicePairRequestParamsSchema = Type.Object({ requestId: NonEmptyString }, closed);
/** `device.pair.remove`: unpair one device (its tokens stop working; it must be approved again). */
export const DevicePairRemoveParamsSchema = Type.Object({ deviceId: NonEmptyString }, closed);
/** `device.token.rotate`: a new token for the device (its older ones are revoked). */
export const DeviceTokenRotateParamsSchema = Type.Object(
  {
    deviceId: NonEmptyString,
    role: NonEmptyString,
    scopes: Type.Optional(Type.Array(NonEmptyString)),
  },
  closed,
);
/** `device.token.revoke`: the device's tokens for a role stop working (it stays paired). */
export const DeviceTokenRevokeParamsSchema = Type.Object(
  { deviceId: NonEmptyString, role: NonEmptyString },
  closed,
);

/** Method → params schema of the device methods (spread into METHOD_PARAMS). */
export const DEVICE_METHOD_PARAMS = {
  "device.pair.list": DevicePairListParamsSchema,
  "device.pair.approve": DevicePairRequestParamsSchema,
  "device.pair.reject": DevicePairRequestParamsSchema,
  "device.pair.remove": DevicePairRemoveParamsSchema,
  "device.token.rotate": DeviceTokenRotateParamsSchema,
  "device.token.revoke": DeviceTokenRevokeParamsSchema,
} as const;
