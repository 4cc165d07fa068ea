// Public surface of routing: inbound message → agent + session key, session key helpers, explanations.
// Other areas import from here only. Pure code, no I/O; per-config caches live in WeakMaps.

export { resolveDefaultAgentId } from "../agents/roster.js";
export { type BindingTier, classifyBindingTier } from "./binding-compile.js";
export { normalizeChatType } from "./chat-type.js";
export {
  explainAgentRoute,
  ROUTE_TIERS,
  type RouteCandidate,
  type RouteExplanation,
  type RouteTierExplanation,
} from "./explain-route.js";
export type { IdentityLinks } from "./identity-links.js";
export {
  DEFAULT_ACCOUNT_ID,
  DEFAULT_AGENT_ID,
  DEFAULT_MAIN_KEY,
  normalizeAccountId,
  normalizeAgentId,
  normalizeMainKey,
} from "./ids.js";
export { resolveAgentRoute } from "./resolve-route.js";
export {
  type BuildAgentMainSessionKeyParams,
  type BuildAgentSessionKeyParams,
  type BuildGroupHistoryKeyParams,
  buildAgentMainSessionKey,
  buildAgentSessionKey,
  buildGroupHistoryKey,
  type DeriveLastRoutePolicyParams,
  deriveLastRoutePolicy,
  parseDmScope,
  parseGroupScope,
  preservesPeerIdCase,
  type ResolveInboundLastRouteParams,
  resolveInboundLastRouteSessionKey,
} from "./session-key.js";
export {
  classifySessionKeyShape,
  normalizeSessionKeyRest,
  type ParsedAgentSessionKey,
  parseAgentSessionKey,
  parseSessionDeliveryRoute,
  resolveAgentIdFromSessionKey,
  type SessionDeliveryRoute,
  type SessionKeyShape,
  type ToAgentStoreSessionKeyParams,
  toAgentRequestSessionKey,
  toAgentStoreSessionKey,
} from "./session-key-parse.js";
export {
  buildTelegramTopicPeerId,
  parseThreadSessionSuffix,
  type ResolveTelegramGroupPeersParams,
  type ResolveThreadSessionKeysParams,
  resolveTelegramGroupPeers,
  resolveThreadSessionKeys,
  TELEGRAM_GENERAL_TOPIC_ID,
  type TelegramGroupPeers,
  type ThreadSessionKeys,
  type ThreadSessionSuffix,
} from "./session-key-thread.js";
export type {
  ChatType,
  DmScope,
  GroupScope,
  LastRoutePolicy,
  MatchedBy,
  ResolveAgentRouteInput,
  ResolvedAgentRoute,
  RouteBinding,
  RouteBindingMatch,
  RouteBindingPeer,
  RouteConfig,
  RouteId,
  RoutePeer,
  RouteSessionConfig,
} from "./types.js";
