// doctor's permission check: the state dir holds credentials and conversations, so it should be 0700,
// and each credential file (config, gateway token, auth profiles, channel credentials, paired devices)
// 0600 — never readable by group or others. `--fix` narrows them with chmod; nothing else changes.
import { chmodSync, lstatSync, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import { listAgents } from "../../agents/roster.js";
import { gatewayTokenPath } from "../../gateway/auth/token-file.js";
import { authStorePath } from "../../runtime/models/auth-store.js";
import { type DoctorCheck, type DoctorFinding, type DoctorScope, modeText } from "./finding.js";

const GROUP_OR_OTHER = 0o077;
const OTHER_READ = 0o004;
/** State-dir subfolders whose every file is a credential. */
const CREDENTIAL_DIRS = ["credentials", "devices", "identity"];

function statOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw err;
  }
}

/** Every regular file and folder under `dir` (symlinks are not followed). */
function walk(dir: string): Array<{ path: string; stats: Stats }> {
  const stats = statOf(dir);
  if (!stats?.isDirectory()) return [];
  const found = [{ path: dir, stats }];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const child = statOf(path);
    if (child?.isDirectory()) found.push(...walk(path));
    else if (child?.isFile()) found.push({ path, stats: child });
  }
  return found;
}

function credentialFiles(scope: DoctorScope): string[] {
  const { loaded } = scope;
  const stateDir = loaded.paths.stateDir;
  const agentFiles = listAgents(loaded.config, loaded.paths).map((agent) =>
    authStorePath(agent.agentDir),
  );
  return [loaded.path, `${loaded.path}.bak`, gatewayTokenPath(stateDir), ...agentFiles];
}

function tooOpen(path: string, stats: Stats, kind: "dir" | "file"): DoctorFinding | undefined {
  if ((stats.mode & GROUP_OR_OTHER) === 0) return undefined;
  const wanted = kind === "dir" ? 0o700 : 0o600;
  const who = (stats.mode & OTHER_READ) !== 0 ? "everyone" : "its group";
  const what = kind === "dir" ? "folder" : "credential file";
  return {
    checkId: "permissions",
    severity: kind === "file" && (stats.mode & OTHER_READ) !== 0 ? "error" : "warning",
    message: `${what} ${path} is open to ${who} (mode ${modeText(stats.mode)}; want ${modeText(wanted)})`,
    path,
    fixHint: `chmod ${wanted.toString(8)} '${path}'`,
    repair: { action: `chmod ${wanted.toString(8)} ${path}`, apply: () => chmodSync(path, wanted) },
  };
}

/** Reports a state dir or credential file that group or others can read or enter. */
export const permissionsCheck: DoctorCheck = {
  id: "permissions",
  detect: async (scope) => {
    // Windows has no POSIX modes to check.
    if (scope.platform === "win32") return [];
    const stateDir = scope.loaded.paths.stateDir;
    const state = statOf(stateDir);
    if (!state) {
      return [
        {
          checkId: "permissions",
          severity: "info",
          message: `state dir ${stateDir} does not exist yet (the gateway creates it)`,
          path: stateDir,
        },
      ];
    }
    const findings: DoctorFinding[] = [];
    const dirFinding = state.isDirectory() ? tooOpen(stateDir, state, "dir") : undefined;
    if (dirFinding) findings.push(dirFinding);
    const seen = new Set<string>();
    for (const path of credentialFiles(scope)) {
      const stats = statOf(path);
      if (!stats?.isFile() || seen.has(path)) continue;
      seen.add(path);
      const finding = tooOpen(path, stats, "file");
      if (finding) findings.push(finding);
    }
    for (const dir of CREDENTIAL_DIRS) {
      for (const entry of walk(join(stateDir, dir))) {
        const finding = tooOpen(
          entry.path,
          entry.stats,
          entry.stats.isDirectory() ? "dir" : "file",
        );
        if (finding) findings.push(finding);
      }
    }
    return findings;
  },
};
