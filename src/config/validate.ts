// validateConfig: the schema pass, then the isolation and access-group rules, with every issue
// located and in plain words.
import type { TSchema } from "typebox";
import { checkModelPolicyConfig } from "../runtime/models/policy.js";
import { checkAccessGroupRefs } from "./access-group-rules.js";
import {
  type ConfigIssue,
  type ConfigValidationResult,
  hasErrors,
  makeIssue,
  type SourcePosition,
} from "./config-issue.js";
import { ancestorPaths, formatConfigPath, type PathSegment } from "./config-path.js";
import { DEFAULT_CONFIG_SCHEMA } from "./default-schema.js";
import { checkIsolationRules } from "./isolation-rules.js";
import { resolveStatePaths, type StatePaths } from "./paths.js";
import { validateAgainstSchema } from "./schema-validator.js";

/** Maps a config path to where it stands in a file (undefined when unknown). */
export type ConfigLocator = (path: string) => SourcePosition | undefined;

/** Options for {@link validateConfig}. */
export interface ValidateConfigOptions {
  /** State paths for the isolation checks; default derived from process.env. */
  paths?: StatePaths;
  /** JSON Schema (TypeBox) to check against; default {@link DEFAULT_CONFIG_SCHEMA}. */
  schema?: TSchema;
  locate?: ConfigLocator;
}

/** Position of the nearest located ancestor (a missing key points at its parent object). */
function locateNearest(
  locate: ConfigLocator | undefined,
  segments: PathSegment[],
): SourcePosition | undefined {
  if (!locate) return undefined;
  for (const path of ancestorPaths(segments)) {
    const at = locate(path);
    if (at) return at;
  }
  return undefined;
}

/** Validates a resolved config value: schema errors and warnings, then semantic isolation rules. */
export function validateConfig(
  value: unknown,
  options: ValidateConfigOptions = {},
): ConfigValidationResult {
  const paths = options.paths ?? resolveStatePaths({ env: process.env });
  const schema = options.schema ?? DEFAULT_CONFIG_SCHEMA;
  const issues: ConfigIssue[] = [];
  const errorPaths = new Set<string>();
  for (const issue of validateAgainstSchema(value, schema)) {
    const path = formatConfigPath(issue.segments);
    if (issue.severity === "error") errorPaths.add(path);
    const at = locateNearest(options.locate, issue.segments);
    issues.push(makeIssue({ severity: issue.severity, path, message: issue.message, at }));
  }
  for (const issue of [...checkIsolationRules(value, paths), ...checkAccessGroupRefs(value)]) {
    const path = formatConfigPath(issue.segments);
    if (errorPaths.has(path)) continue;
    const at = locateNearest(options.locate, issue.segments);
    issues.push(makeIssue({ severity: issue.severity, path, message: issue.message, at }));
  }
  // Model policy (policy.js is provider-free: importing it does not load pi-ai).
  for (const issue of checkModelPolicyConfig(value)) {
    if (errorPaths.has(issue.path)) continue;
    const at = locateNearest(options.locate, issue.segments);
    issues.push(
      makeIssue({ severity: issue.severity, path: issue.path, message: issue.message, at }),
    );
  }
  return { valid: !hasErrors(issues), issues };
}
