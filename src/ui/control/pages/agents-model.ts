// What the Agents page reads from the gateway (agents.list rows, agents.route answers, bootstrap
// file entries) and how the route tester's form becomes `agents.route` params. Data only.

/** A binding routing to an agent, as agents.list reports it. */
export interface AgentBinding {
  index: number;
  tier: string;
  match: Record<string, unknown>;
  comment?: string;
}

/** One agents.list row. */
export interface AgentSummary {
  id: string;
  name?: string;
  model?: string;
  fallbacks?: string[];
  isDefault: boolean;
  workspace: string;
  agentDir?: string;
  sandbox?: { mode: string; source: string | null; hostTools: string };
  tools?: { profile: string; allowed: string[] };
  bindings?: AgentBinding[];
}

/** One tier of an agents.route answer. */
export interface RouteTier {
  tier: string;
  outcome: "matched" | "no-match" | "not-applicable";
  reason: string;
  candidates: Array<{ bindingIndex: number; agentId: string; rejected?: string }>;
}

/** An agents.route answer (`pincer agents route --json`). */
export interface RouteAnswer {
  route: {
    agentId: string;
    sessionKey: string;
    matchedBy: string;
    accountId: string;
    dmScope?: string;
    groupScope?: string;
  };
  matchedBindingIndex?: number;
  tiers: RouteTier[];
  notes: string[];
}

/** One bootstrap file (agents.files.*). */
export interface AgentFile {
  name: string;
  path: string;
  missing: boolean;
  size?: number;
  updatedAtMs?: number;
  content?: string;
}

/** Peer kinds the route tester offers ("" = no peer). */
export const PEER_KINDS: readonly string[] = ["direct", "group", "channel"];

/** `agents.route` params from the tester's form fields (blank fields left out). */
export function routeParams(data: FormData): Record<string, unknown> {
  const text = (name: string) => String(data.get(name) ?? "").trim();
  const params: Record<string, unknown> = { channel: text("channel") };
  if (text("accountId")) params.accountId = text("accountId");
  if (text("peerKind") && text("peerId")) {
    params.peer = { kind: text("peerKind"), id: text("peerId") };
  }
  if (text("guildId")) params.guildId = text("guildId");
  if (text("teamId")) params.teamId = text("teamId");
  const roles = text("roles")
    .split(",")
    .map((role) => role.trim())
    .filter(Boolean);
  if (roles.length > 0) params.memberRoleIds = roles;
  return params;
}

/** A binding's match in one line: `telegram peer=direct:42 guild=g1 roles=a,b`. */
export function describeMatch(match: Record<string, unknown>): string {
  const parts = [String(match.channel ?? "?")];
  parts.push(
    match.accountId === undefined ? "default account" : `account=${String(match.accountId)}`,
  );
  const peer = match.peer as { kind?: string; id?: string } | undefined;
  if (peer) parts.push(`peer=${peer.kind ?? "?"}:${peer.id ?? "?"}`);
  if (match.guildId !== undefined) parts.push(`guild=${String(match.guildId)}`);
  if (match.teamId !== undefined) parts.push(`team=${String(match.teamId)}`);
  if (Array.isArray(match.roles) && match.roles.length > 0)
    parts.push(`roles=${match.roles.join(",")}`);
  return parts.join(" ");
}
