// A workspace is a folder of the agent's own: `--workspace /`, `~`, the state dir or a folder holding
// either would seed AGENTS.md and friends there, give the agent's tools that whole tree, and be
// refused by `pincer uninstall`. Every command that takes a workspace folder checks it here.
import { expandHome } from "../../config/paths.js";
import { CliError, ExitCode } from "../command-context.js";
import { dangerOf } from "../uninstall-plan.js";

/** Why `raw` (as typed: `~/…`, relative or absolute) cannot be a workspace, if it cannot. */
export function workspaceProblem(
  raw: string,
  paths: { home: string; stateDir: string },
): string | undefined {
  const dir = expandHome(raw.trim(), paths.home);
  const danger = dangerOf(dir, paths);
  return danger
    ? `not a workspace folder: ${danger}; pick a folder of its own, e.g. ~/.openclaw/workspace`
    : undefined;
}

/** Refuses (usage error) a `--workspace` that {@link workspaceProblem} rejects. */
export function checkWorkspaceFlag(raw: string, paths: { home: string; stateDir: string }): void {
  const problem = workspaceProblem(raw, paths);
  if (problem) throw new CliError(`--workspace "${raw}": ${problem}`, ExitCode.usage);
}
