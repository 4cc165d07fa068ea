// Finding executables on the node's PATH (`system.which`, and the exec allowlist's resolution).
import { constants } from "node:fs";
import { access, realpath } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";

/** The real path of the executable `name` would run (a bare name is looked up on `pathEnv`). */
export async function whichExecutable(
  name: string,
  pathEnv: string | undefined,
): Promise<string | undefined> {
  const candidates = name.includes("/")
    ? [isAbsolute(name) ? name : undefined]
    : (pathEnv ?? "")
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, name));
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      await access(candidate, constants.X_OK);
      return await realpath(candidate);
    } catch (err) {
      // Not there or not executable: try the next PATH entry (anything else is a real failure).
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "EACCES" && code !== "ENOTDIR") throw err;
    }
  }
  return undefined;
}
