// The one shape every config problem is reported in: loader, schema pass, isolation rules and editor.

/** One config problem, with its OpenClaw-style path and (when known) where it stands in which file. */
export type ConfigIssue = {
  severity: "error" | "warning";
  /** Dot path such as `agents.list[1].agentDir`; `` for the whole file. */
  path: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
};

/** Where a value stands in a config file (1-based line and column). */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

/** Result of validating a config: valid means "no errors" (warnings are allowed). */
export interface ConfigValidationResult {
  valid: boolean;
  issues: ConfigIssue[];
}

/** True when at least one issue is an error. */
export function hasErrors(issues: readonly ConfigIssue[]): boolean {
  return issues.some((issue) => issue.severity === "error");
}

/** Builds an issue, attaching the position only when one is known. */
export function makeIssue(params: {
  severity: ConfigIssue["severity"];
  path: string;
  message: string;
  at?: SourcePosition;
}): ConfigIssue {
  const { severity, path, message, at } = params;
  return at
    ? { severity, path, message, file: at.file, line: at.line, column: at.column }
    : { severity, path, message };
}
