// What a paired device was approved for, and whether a connect asks for more: another role, or an
// operator scope its approval does not cover. A device token grants at most this approval; asking for
// more becomes a role-upgrade / scope-upgrade pairing request an operator must approve.
import type { PairedDevice } from "./types.js";

/** The admin scope: covers every other `operator.*` scope. */
const ADMIN_SCOPE = "operator.admin";

/** The roles a device is approved for (`roles`, or the single `role` of older records). */
export function approvedRoles(device: Pick<PairedDevice, "role" | "roles">): string[] {
  return device.roles && device.roles.length > 0 ? [...device.roles] : [device.role];
}

/**
 * Whether `approved` covers `scope`, with the gateway's implications: `operator.admin` covers every
 * operator scope, `operator.write` covers `operator.read`. Scopes of other roles never match.
 */
export function scopeCovered(scope: string, approved: readonly string[]): boolean {
  if (!scope.startsWith("operator.")) return false;
  if (approved.includes(scope) || approved.includes(ADMIN_SCOPE)) return true;
  return scope === "operator.read" && approved.includes("operator.write");
}

/** Why a connect needs a new approval, or undefined when the device's approval covers it. */
export type AccessUpgrade = "role-upgrade" | "scope-upgrade";

/** Compares the access a connect asks for with the device's approval (role first, then scopes). */
export function accessUpgrade(
  device: Pick<PairedDevice, "role" | "roles" | "scopes">,
  access: { role: string; scopes: readonly string[] },
): AccessUpgrade | undefined {
  if (!approvedRoles(device).includes(access.role)) return "role-upgrade";
  const missing = access.scopes.filter((scope) => !scopeCovered(scope, device.scopes));
  return missing.length > 0 ? "scope-upgrade" : undefined;
}

/** Union of two string lists, first-seen order. */
export function unionOf(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}
