// Types shared by route resolution, session keys and route explanation.
// Config types are structural and loose on purpose: a validated OpenClaw config object (and hand-written
// test configs) must be assignable without casts; every field is re-validated at runtime.
import type { OpenClawConfig } from "../protocol/config/index.js";

/** How direct messages map to sessions: one shared main session, or one per peer/channel/account. */
export type DmScope = "main" | "per-peer" | "per-channel-peer" | "per-account-channel-peer";

/** How groups and channels map to sessions: one per group (default) or collapsed into the main session. */
export type GroupScope = "per-group" | "main";

/** Normalized chat kind of a peer; `dm` is accepted on input and becomes `direct`. */
export type ChatType = "direct" | "group" | "channel";

/** A config string field that is validated at runtime, so unknown values are accepted by the type. */
type LooseString<T extends string> = T | (string & Record<never, never>);

/** A peer or guild/team id as it appears in config or inbound metadata (numbers are stringified). */
export type RouteId = string | number | bigint;

/** The peer part of a binding match: `kind` is direct/dm/group/channel, `id` may be `"*"`. */
export interface RouteBindingPeer {
  kind?: string | null;
  id?: RouteId | null;
}

/** The `match` object of a binding: every constraint present must match (AND). */
export interface RouteBindingMatch {
  channel?: string | null;
  /** `"*"` = every account; absent = only the `default` account. */
  accountId?: string | null;
  peer?: RouteBindingPeer | null;
  guildId?: RouteId | null;
  teamId?: RouteId | null;
  roles?: readonly string[] | null;
}

/** One `bindings[]` entry of openclaw.json (only `type` undefined or `"route"` routes messages). */
export interface RouteBinding {
  type?: string | null;
  agentId?: string | null;
  comment?: string | null;
  match?: RouteBindingMatch | null;
  session?: {
    dmScope?: LooseString<DmScope> | null;
    groupScope?: LooseString<GroupScope> | null;
  } | null;
}

/** The `session` section parts routing reads (plus `store`, read by the roster). */
export interface RouteSessionConfig {
  dmScope?: LooseString<DmScope> | null;
  groupScope?: LooseString<GroupScope> | null;
  mainKey?: string | null;
  /** Canonical name → ids (`"123"` or `"telegram:123"`) that are the same person. */
  identityLinks?: Readonly<Record<string, readonly string[]>> | null;
  store?: string;
}

/** The parts of openclaw.json that routing reads; a full validated config is assignable to it. */
export interface RouteConfig {
  agents?: OpenClawConfig["agents"];
  bindings?: readonly RouteBinding[] | null;
  session?: RouteSessionConfig;
}

/** An inbound peer (the DM partner, group or channel) or a thread's parent peer. */
export interface RoutePeer {
  kind: string;
  id: RouteId;
}

/** Everything routing needs to know about one inbound message. */
export interface ResolveAgentRouteInput {
  cfg: RouteConfig;
  channel: string;
  accountId?: string | null;
  peer?: RoutePeer | null;
  /** Parent peer of a thread or Telegram topic, so bindings on the parent still match. */
  parentPeer?: RoutePeer | null;
  guildId?: RouteId | null;
  teamId?: RouteId | null;
  /** Discord member role ids; a binding's `roles` matches when any of them is present. */
  memberRoleIds?: readonly RouteId[] | null;
  /** Owner of unmatched traffic; overrides the config default agent for tier `default`. */
  defaultAgentId?: string | null;
  /** Overrides `session.dmScope` (a matched binding's `session.dmScope` still wins). */
  dmScope?: DmScope;
  /** Overrides `session.groupScope` (a matched binding's `session.groupScope` still wins). */
  groupScope?: GroupScope;
}

/** Which tier decided the route, most specific first; `default` means no binding matched. */
export type MatchedBy =
  | "binding.peer"
  | "binding.peer.parent"
  | "binding.peer.wildcard"
  | "binding.guild+roles"
  | "binding.guild"
  | "binding.team"
  | "binding.account"
  | "binding.channel"
  | "default";

/** `main` when the message's session is the agent's main session, else `session`. */
export type LastRoutePolicy = "main" | "session";

/** The routing decision for one inbound message. */
export interface ResolvedAgentRoute {
  agentId: string;
  channel: string;
  accountId: string;
  dmScope: DmScope;
  groupScope: GroupScope;
  /** Session that stores this conversation (persistence and concurrency key). */
  sessionKey: string;
  /** The agent's main session (`agent:<id>:<mainKey>`), where direct chats collapse by default. */
  mainSessionKey: string;
  /** Which session receives inbound last-route updates. */
  lastRoutePolicy: LastRoutePolicy;
  /** Tier that decided the route, for logs and `pincer agents route`. */
  matchedBy: MatchedBy;
}
