// Which operator scope each method needs. Reads need operator.read, writes operator.write, config.*
// (and every method this table does not know) operator.admin, as OpenClaw treats them (unknown fails closed).

/** Scope names with a meaning for method authorization. */
export type MethodScope = "operator.read" | "operator.write" | "operator.admin";

const READ = [
  "health",
  "status",
  "system-presence",
  "agent.identity.get",
  "chat.history",
  "sessions.list",
  "sessions.preview",
  "agents.list",
  "models.list",
  "channels.status",
  "channels.pairing.list",
  "channels.failures.list",
  "logs.tail",
  "last-heartbeat",
] as const;
const WRITE = [
  "system-event",
  "send",
  "agent",
  "agent.wait",
  "chat.send",
  "chat.abort",
  "sessions.patch",
  "sessions.reset",
  "sessions.delete",
  "sessions.compact",
  "channels.failures.retry",
  "channels.failures.drop",
] as const;
const ADMIN = [
  "config.get",
  "config.set",
  "config.patch",
  "config.apply",
  "config.schema",
  "set-heartbeats",
] as const;
const ADMIN_PREFIXES = ["config.", "exec.approvals.", "wizard.", "update."];

/** Method → required scope, for the methods Pincer serves. */
export const METHOD_SCOPES: Readonly<Record<string, MethodScope>> = Object.freeze({
  ...Object.fromEntries(READ.map((method): [string, MethodScope] => [method, "operator.read"])),
  ...Object.fromEntries(WRITE.map((method): [string, MethodScope] => [method, "operator.write"])),
  ...Object.fromEntries(ADMIN.map((method): [string, MethodScope] => [method, "operator.admin"])),
});

/** The scope a method needs; unknown methods (and admin families) need operator.admin. */
export function requiredScope(method: string): MethodScope {
  if (ADMIN_PREFIXES.some((prefix) => method.startsWith(prefix))) return "operator.admin";
  return METHOD_SCOPES[method] ?? "operator.admin";
}

/** Whether granted scopes satisfy `needed` (admin ⊇ write ⊇ read). */
export function hasScope(granted: readonly string[], needed: MethodScope): boolean {
  if (granted.includes("operator.admin")) return true;
  if (needed === "operator.read") {
    return granted.includes("operator.read") || granted.includes("operator.write");
  }
  return granted.includes(needed);
}
