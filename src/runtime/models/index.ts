// Public surface of the models area: model refs and chains, the model registry (pi-ai built-ins +
// custom providers), per-agent auth profiles and credentials, failure classification, failover
// planning and the model policy. Importing this loads pi-ai; config validation should import
// `./policy.js` directly (it is provider-free).
export {
  type Attempt,
  type AttemptLabel,
  type AttemptPlan,
  type FailoverEvent,
  firstAttempt,
  type NextAttemptInput,
  type NextStep,
  nextAttempt,
  type PlanAttemptsInput,
  planAttempts,
  type UncoveredModel,
} from "./attempts.js";
export {
  type ApiKeyCredential,
  AUTH_PROFILES_FILE,
  type AuthCredential,
  type AuthProfileStore,
  type AuthStoreRead,
  asCredential,
  authStorePath,
  emptyAuthStore,
  type OAuthCredential,
  type ProfileUsageStats,
  readAuthStore,
  type SetAuthProfileInput,
  type StoredProfile,
  setAuthProfile,
  type TokenCredential,
  updateAuthStore,
  writeAuthStore,
} from "./auth-store.js";
export { AuthStoreCache } from "./auth-store-cache.js";
export {
  classifyErrorText,
  classifyFailure,
  classifyStatus,
  type FailoverAction,
  type FailureReason,
  failoverAction,
  penalizesProfile,
} from "./classify.js";
export type { AgentModelSettings, AgentSlot } from "./config-view.js";
export {
  computeProfileBlock,
  isStoredProfileId,
  type MarkProfileFailureInput,
  type MarkProfileGoodInput,
  markProfileFailure,
  markProfileGood,
} from "./cooldown.js";
export {
  type CredentialCandidate,
  type CredentialKind,
  envVarsForProvider,
  type PreferredProfileOutcome,
  type ResolveCredentialsInput,
  type ResolvedCredentials,
  resolveCredentials,
  type SkippedCredential,
  type SkipReason,
} from "./credentials.js";
export { closeMatches } from "./matching.js";
export {
  candidateApiKey,
  OAUTH_REFRESH_MARGIN_MS,
  type OAuthRefresher,
  oauthNeedsRefresh,
  type RefreshOAuthProfileInput,
  type RefreshOAuthResult,
  refreshOAuthProfile,
} from "./oauth.js";
export {
  checkModelAgainstPolicy,
  checkModelPolicyConfig,
  type ModelPolicyIssue,
  type PolicyCheck,
  type ResolvedModelPolicy,
  resolveAgentModelPolicy,
} from "./policy.js";
export {
  buildModelAliases,
  type ChainLink,
  DEFAULT_MODEL_REF,
  DEFAULT_PROVIDER,
  formatModelRef,
  type ModelChain,
  type ModelRef,
  normalizeProviderId,
  type ParsedModelRef,
  type ParseModelRefOptions,
  parseModelRef,
  resolveAgentModelChain,
  resolveModelParams,
} from "./refs.js";
export {
  type CatalogModel,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_TOKENS,
  isReplaceMode,
  listKnownProviders,
  listModels,
  type ModelSource,
  type ResolveModelInput,
  type ResolveModelResult,
  resolveModel,
} from "./registry.js";
export { describeUnreachable, type UnreachableInput } from "./unreachable.js";
