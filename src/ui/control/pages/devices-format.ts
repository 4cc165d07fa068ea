// Small text helpers of the admin pages (Devices, Channels): relative times, short ids, access lists.

/** "5 s ago", "3 min ago", "2 h ago", "4 d ago" for an epoch-ms time; "never" when absent. */
export function ago(at: number | undefined, now: number = Date.now()): string {
  if (at === undefined || at <= 0) return "never";
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

/** The first 12 characters of a long id (device ids are 64 hex characters). */
export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 12)}…` : id;
}

/** `operator: operator.read, operator.write` (roles joined by `+`; `-` for no scopes). */
export function accessText(roles: readonly string[], scopes: readonly string[]): string {
  return `${roles.join("+")}: ${scopes.length > 0 ? scopes.join(", ") : "-"}`;
}

/** An outcome error as one line. */
export function errorText(error: { code: string; message: string }): string {
  return `${error.message} (${error.code})`;
}
