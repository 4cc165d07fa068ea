// loadConfig: find the config file, read JSON5, resolve $include and ${VAR}, validate, and report every
// problem as a located issue. Never throws for bad input; a missing file means "all defaults".
import { resolve } from "node:path";
import type { TSchema } from "typebox";
import type { OpenClawConfig } from "../protocol/config/index.js";
import { type EnvMap, withConfigEnv } from "./config-env.js";
import { type ConfigIssue, hasErrors } from "./config-issue.js";
import { parseConfigPath } from "./config-path.js";
import { resolveConfigSource } from "./config-source.js";
import type { DefaultConfig } from "./default-schema.js";
import { substituteEnvVars } from "./env-substitution.js";
import { lookupOrigin } from "./located-value.js";
import { expandHome, resolveStatePaths, type StatePaths } from "./paths.js";
import { type ResolvedConfig, resolveConfig } from "./resolve.js";
import { type ConfigLocator, validateConfig } from "./validate.js";

/** Options for {@link loadConfig}; everything defaults from `env` (itself defaulting to process.env). */
export interface LoadConfigOptions {
  env?: Record<string, string | undefined>;
  /** `--profile NAME`. */
  profile?: string;
  /** Precomputed state paths; default resolved from env + profile. */
  paths?: StatePaths;
  /** Explicit config file; default `paths.configPath`. */
  configPath?: string;
  /** Schema to validate against; default the built-in config schema. */
  schema?: TSchema;
  /** The main file's content when the caller already read it (so a hash of those bytes matches). */
  text?: string;
}

/** The outcome of loading: the merged, substituted config plus every issue and every file read. */
export interface LoadedConfig<T = DefaultConfig> {
  path: string;
  exists: boolean;
  paths: StatePaths;
  /** The merged, substituted value; `{}` when the file is missing or unparseable. */
  config: T;
  issues: ConfigIssue[];
  /** True when no issue is an error. */
  valid: boolean;
  /** Main file plus every included file that was read (for a file watcher). */
  files: string[];
  /** Where each config path stands, for callers that report their own issues. */
  locate: ConfigLocator;
  /** The config every area reads (legacy shapes folded, roster resolved, defaults applied); `config`
   *  stays the file's value for the code whose subject is the file (get/patch/redaction/validation). */
  resolved: ResolvedConfig;
  /** The environment runs read: the given env plus the config's `env` vars it lacks (the real env
   *  wins). Pass this, not process.env, to whatever reads API keys, tokens or a child's env. */
  env: EnvMap;
}

/** Loads, resolves and validates the config file; problems are returned as issues, never thrown. */
export function loadConfig<T = DefaultConfig>(options: LoadConfigOptions = {}): LoadedConfig<T> {
  const env = options.env ?? process.env;
  const paths = options.paths ?? resolveStatePaths({ env, profile: options.profile });
  const path = options.configPath
    ? resolve(expandHome(options.configPath, paths.home))
    : resolve(paths.configPath);
  const source = resolveConfigSource({
    file: path,
    home: paths.home,
    ...(options.text !== undefined ? { text: options.text } : {}),
  });
  const { origin } = source;
  const locate: ConfigLocator = (configPath) => {
    const parsed = origin ? parseConfigPath(configPath) : undefined;
    return origin && parsed?.ok ? lookupOrigin(origin, parsed.segments) : undefined;
  };
  const base = { path, exists: source.exists, paths, files: source.files, locate };
  if (!source.parsed) {
    const issues = source.issues;
    const resolved = resolveConfig({ config: {}, paths });
    return {
      ...base,
      config: {} as T,
      resolved,
      issues,
      valid: !hasErrors(issues),
      env: { ...env },
    };
  }
  // As OpenClaw: the `env` block applies before substitution, so `${VAR}` elsewhere can use it.
  const effectiveEnv = withConfigEnv({ base: env, config: source.value });
  const substituted = substituteEnvVars({
    value: source.value,
    env: effectiveEnv,
    origin: source.origin,
  });
  const validation = validateConfig(substituted.value, { paths, schema: options.schema, locate });
  const issues = [...source.issues, ...substituted.issues, ...validation.issues];
  const resolved = resolveConfig({ config: substituted.value as OpenClawConfig, paths });
  const config = substituted.value as T;
  return { ...base, config, resolved, issues, valid: !hasErrors(issues), env: effectiveEnv };
}
