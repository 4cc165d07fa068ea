// doctor's config check: the file loaded and validated exactly as every command loads it (schema, rules
// and the model refs gateway start checks), each issue a finding at its file, line and column; keys
// Pincer accepts but ignores are listed as info (as `config validate` warns). Doctor does not edit the
// config (no repair is safe to guess).
import { type ConfigIssue, compatKeyIssues } from "../../config/index.js";
import { withModelRefIssues } from "../../runtime/models/model-ref-rules.js";
import type { DoctorCheck, DoctorFinding } from "./finding.js";

function toFinding(params: {
  issue: ConfigIssue;
  file: string;
  severity: DoctorFinding["severity"];
  fixHint: string;
}): DoctorFinding {
  const { issue } = params;
  return {
    checkId: "config",
    severity: params.severity,
    message: `${issue.path === "" ? "(file)" : issue.path}: ${issue.message}`,
    path: issue.file ?? params.file,
    ...(issue.line !== undefined ? { line: issue.line } : {}),
    ...(issue.column !== undefined ? { column: issue.column } : {}),
    fixHint: params.fixHint,
  };
}

/** Reports every load, validation and model-ref issue of the config file, and its ignored keys. */
export const configCheck: DoctorCheck = {
  id: "config",
  detect: async ({ loaded, env }) => {
    if (!loaded.exists) {
      return [
        {
          checkId: "config",
          severity: "info",
          message: `no config file at ${loaded.path}; built-in defaults are used`,
          path: loaded.path,
          fixHint: "create one with: pincer setup (or pincer onboard)",
        },
      ];
    }
    const checked = withModelRefIssues(loaded, env);
    const seen = new Set(checked.issues.map((issue) => issue.path));
    const ignored = compatKeyIssues({ config: loaded.config, locate: loaded.locate }).filter(
      (issue) => !seen.has(issue.path),
    );
    return [
      ...checked.issues.map((issue) =>
        toFinding({
          issue,
          file: loaded.path,
          severity: issue.severity,
          fixHint: "edit the config; pincer config validate lists every problem with its line",
        }),
      ),
      ...ignored.map((issue) =>
        toFinding({
          issue,
          file: loaded.path,
          severity: "info",
          fixHint: "Pincer does not act on this key yet: remove it, or keep it for OpenClaw",
        }),
      ),
    ];
  },
};
