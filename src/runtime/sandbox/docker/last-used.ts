// When a sandbox container was last used: Docker labels cannot change after creation, so each
// ensure() writes the time to a small file under the container's workspace root
// (`<workspaceRoot>/.docker-last-used/<container>`), and list() reads it back for prune's idle clock.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

const DIR = ".docker-last-used";

function lastUsedPath(workspaceRoot: string, container: string): string {
  return join(workspaceRoot, DIR, container);
}

/** Records `at` (epoch ms) as the container's last use; a failure is returned, never thrown. */
export async function touchLastUsed(params: {
  workspaceRoot: string;
  container: string;
  at: number;
}): Promise<string | undefined> {
  try {
    await mkdir(join(params.workspaceRoot, DIR), { recursive: true });
    await writeFile(lastUsedPath(params.workspaceRoot, params.container), String(params.at));
    return undefined;
  } catch (err) {
    return `could not record the sandbox's last use: ${(err as Error).message}`;
  }
}

/** The recorded last use (epoch ms), or undefined when none was recorded or it is unreadable. */
export async function readLastUsed(
  workspaceRoot: string,
  container: string,
): Promise<number | undefined> {
  try {
    const at = Number((await readFile(lastUsedPath(workspaceRoot, container), "utf8")).trim());
    return Number.isFinite(at) && at > 0 ? at : undefined;
  } catch {
    // Never recorded (or the root moved): the caller falls back to the creation time.
    return undefined;
  }
}

/** Forgets the record of a removed container (a missing one is fine). */
export async function clearLastUsed(workspaceRoot: string, container: string): Promise<void> {
  await rm(lastUsedPath(workspaceRoot, container), { force: true });
}
