// Operator scopes. Each method declares the scope it needs in its method object
// (src/gateway/methods/); this file holds the scope names and what a grant covers.

/** Scope names with a meaning for method authorization. */
export type MethodScope =
  | "operator.read"
  | "operator.write"
  | "operator.admin"
  | "operator.pairing"
  | "operator.approvals";

/** Whether granted scopes satisfy `needed` (admin ⊇ write ⊇ read; admin ⊇ pairing, approvals). */
export function hasScope(granted: readonly string[], needed: MethodScope): boolean {
  if (granted.includes("operator.admin")) return true;
  if (needed === "operator.read") {
    return granted.includes("operator.read") || granted.includes("operator.write");
  }
  return granted.includes(needed);
}
