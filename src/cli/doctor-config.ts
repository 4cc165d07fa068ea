// doctor's config check: the file loaded and validated exactly as every command loads it, each issue a
// finding at its file, line and column. Doctor does not edit the config (no repair is safe to guess).
import type { DoctorCheck, DoctorFinding } from "./doctor-finding.js";

/** Reports every load and validation issue of the config file. */
export const configCheck: DoctorCheck = {
  id: "config",
  detect: async ({ loaded }) => {
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
    return loaded.issues.map(
      (issue): DoctorFinding => ({
        checkId: "config",
        severity: issue.severity,
        message: `${issue.path === "" ? "(file)" : issue.path}: ${issue.message}`,
        path: issue.file ?? loaded.path,
        ...(issue.line !== undefined ? { line: issue.line } : {}),
        ...(issue.column !== undefined ? { column: issue.column } : {}),
        fixHint: "edit the config; pincer config validate lists every problem with its line",
      }),
    );
  },
};
