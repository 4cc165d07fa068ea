// doctor's workspace check: every configured agent's workspace folder exists and is not `/`, the home
// dir or the state dir (or a folder holding them). `--fix` creates a missing
// one and seeds it exactly as the gateway does before a first turn (bootstrap templates, `memory/`,
// honouring skipBootstrap; existing files are never overwritten).
import { mkdirSync, statSync } from "node:fs";
import { relative } from "node:path";
import { resolveSkipBootstrap } from "../../agents/bootstrap-config.js";
import { listAgents } from "../../agents/roster.js";
import { seedWorkspace } from "../../agents/workspace.js";
import { workspaceKeyFor } from "../setup/setup.js";
import { dangerOf } from "../uninstall-plan.js";
import type { DoctorCheck, DoctorFinding } from "./finding.js";

/** Reports configured workspaces that are missing (repairable) or not folders (not repairable). */
export const workspacesCheck: DoctorCheck = {
  id: "workspaces",
  detect: async ({ loaded }) => {
    const findings: DoctorFinding[] = [];
    const seen = new Set<string>();
    const stateDir = loaded.paths.stateDir;
    for (const agent of listAgents(loaded.config, loaded.paths)) {
      if (seen.has(agent.workspace)) continue;
      seen.add(agent.workspace);
      const danger = dangerOf(agent.workspace, loaded.paths);
      if (danger) {
        // Not repairable by doctor: the fix is a config change only the owner can choose.
        findings.push({
          checkId: "workspaces",
          severity: "error",
          message: `workspace of agent ${agent.id} is ${agent.workspace}: ${danger} (the agent's files and tools would live there)`,
          path: agent.workspace,
          fixHint: `point it at a folder of its own: pincer config set ${workspaceKeyFor(loaded, agent.id)} ~/.openclaw/workspace-${agent.id}`,
        });
        continue;
      }
      let isDir: boolean | undefined;
      try {
        isDir = statSync(agent.workspace).isDirectory();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
      if (isDir === true) continue;
      if (isDir === false) {
        findings.push({
          checkId: "workspaces",
          severity: "error",
          message: `workspace of agent ${agent.id} is not a folder: ${agent.workspace}`,
          path: agent.workspace,
          fixHint: "move that file away or point the agent's workspace elsewhere",
        });
        continue;
      }
      const skipBootstrap = resolveSkipBootstrap(loaded.config, agent.id);
      findings.push({
        checkId: "workspaces",
        severity: "warning",
        message: `workspace of agent ${agent.id} does not exist: ${agent.workspace}`,
        path: agent.workspace,
        fixHint: "pincer doctor --fix creates it (or: pincer setup)",
        repair: {
          action: `create ${agent.workspace}${skipBootstrap ? "" : " and seed its bootstrap files"}`,
          apply: async () => {
            // A workspace inside a state dir that does not exist yet: the state dir is made 0700 first
            // (seeding alone would create it with the umask's 0755).
            const inside = relative(stateDir, agent.workspace);
            if (!inside.startsWith("..") && inside !== "") {
              mkdirSync(stateDir, { recursive: true, mode: 0o700 });
            }
            await seedWorkspace({ dir: agent.workspace, skipBootstrap });
          },
        },
      });
    }
    return findings;
  },
};
