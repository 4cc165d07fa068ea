// Public surface of the config area: locate, load, validate, report and edit the OpenClaw config file.

export {
  type CompatKeyUse,
  compatKeyIssues,
  findCompatKeys,
  listCompatMarks,
  withCompatKeyIssues,
} from "./compat-keys.js";
export { configEnvVars, type EnvMap, refreshEnv, withConfigEnv } from "./config-env.js";
export type { ConfigIssue, ConfigValidationResult, SourcePosition } from "./config-issue.js";
export {
  type ConfigValueResult,
  formatConfigPath,
  getConfigValue,
  type ParsedConfigPath,
  type PathSegment,
  parseConfigPath,
} from "./config-path.js";
export { type ConfigSource, resolveConfigSource } from "./config-source.js";
export { DEFAULT_CONFIG_SCHEMA, type DefaultConfig } from "./default-schema.js";
export { findTooDeep, MAX_CONFIG_DEPTH, tooDeepMessage, valueTooDeep } from "./depth-limit.js";
export {
  type ConfigEdit,
  type EditConfigParams,
  type EditConfigResult,
  type EditsFromConfig,
  editBaseText,
  editConfigFile,
  type PlanEditsParams,
  planConfigEdits,
  toEditResult,
} from "./edit.js";
export {
  configIssuesToJson,
  type FormatIssuesOptions,
  formatConfigIssues,
  type IssueReport,
} from "./format-issues.js";
export { type LoadConfigOptions, type LoadedConfig, loadConfig } from "./load.js";
export {
  expandHome,
  InvalidProfileNameError,
  isValidProfileName,
  resolveStatePaths,
  type StatePaths,
  type StatePathsParams,
} from "./paths.js";
export {
  isRedactionMarker,
  isSecretKey,
  isSecretPath,
  OPENCLAW_REDACTED,
  REDACTED,
  redactConfig,
  redactIssues,
  restoreRedacted,
  SECRET_PATHS,
  unresolvedMarkerMessage,
} from "./redaction.js";
export {
  agentKeyPath,
  DEFAULT_BOOTSTRAP_MAX_CHARS,
  DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS,
  DEFAULT_RUN_TIMEOUT_SECONDS,
  defaultsKeyPath,
  defaultsValuePath,
  findAgent,
  listAgentIds,
  lookupAgent,
  maxConcurrentOf,
  mergeMissing,
  type ResolveConfigParams,
  type ResolvedAgent,
  type ResolvedConfig,
  resolveConfig,
} from "./resolve.js";
export { type RestoreTextParams, restoreSecretsInText } from "./restore-secrets.js";
export { type ConfigLocator, type ValidateConfigOptions, validateConfig } from "./validate.js";
export {
  type CommitParams,
  type CommitResult,
  type ComputedWrite,
  type ConfigSnapshot,
  commitConfigWrite,
  commitConfigWriteAsync,
  configFileHash,
  configLockPath,
  hashConfigBytes,
  readConfigSnapshot,
} from "./write-lock.js";
