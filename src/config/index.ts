// Public surface of the config area: locate, load, validate, report and edit the OpenClaw config file.
export type { ConfigIssue, ConfigValidationResult, SourcePosition } from "./config-issue.js";
export {
  type ConfigValueResult,
  formatConfigPath,
  getConfigValue,
  type ParsedConfigPath,
  type PathSegment,
  parseConfigPath,
} from "./config-path.js";
export { DEFAULT_CONFIG_SCHEMA, type DefaultConfig } from "./default-schema.js";
export {
  type ConfigEdit,
  type EditConfigParams,
  type EditConfigResult,
  editConfigFile,
} from "./edit.js";
export {
  configIssuesToJson,
  type FormatIssuesOptions,
  formatConfigIssues,
  type IssueReport,
} from "./format-issues.js";
export { type LoadConfigOptions, type LoadedConfig, loadConfig } from "./load.js";
export { expandHome, resolveStatePaths, type StatePaths, type StatePathsParams } from "./paths.js";
export { type ConfigLocator, type ValidateConfigOptions, validateConfig } from "./validate.js";
