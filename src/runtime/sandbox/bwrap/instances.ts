// bwrap sandbox instances on disk: `<workspaceRoot>/.pincer-bwrap/<scope slug>/` holding `home/`,
// `tmp/`, `etc/` and `instance.json` (the marker: who it serves and its config hash). The marker's
// mtime is the last-used time. The sandbox workspace (access "none") lives beside, not inside, so
// recreating an instance never loses the agent's files.
import { chmod, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { errnoCode } from "../../tools/types.js";
import type { SandboxInstance, SandboxScope, SandboxSpec } from "../backend.js";
import { scopeSlug } from "../spec.js";
import type { InstanceDirs } from "./args.js";

/** Folder under a workspace root that holds the bwrap instances. */
export const BWRAP_INSTANCES_DIR = ".pincer-bwrap";
const MARKER = "instance.json";

/** What instance.json holds. */
export interface BwrapMarker {
  version: 1;
  agentId: string;
  sessionKey: string;
  scope: SandboxScope;
  scopeKey: string;
  configHash: string;
  createdAt: number;
}

/** The instance dir of `spec` and its sub-dirs. */
export function instancePaths(spec: Pick<SandboxSpec, "workspaceRoot" | "scopeKey">): {
  dir: string;
  dirs: InstanceDirs;
} {
  const dir = join(spec.workspaceRoot, BWRAP_INSTANCES_DIR, scopeSlug(spec.scopeKey));
  return { dir, dirs: subDirs(dir) };
}

function subDirs(dir: string): InstanceDirs {
  return { home: join(dir, "home"), tmp: join(dir, "tmp"), etc: join(dir, "etc") };
}

function isMarker(value: unknown): value is BwrapMarker {
  const m = value as Partial<BwrapMarker> | null;
  return (
    !!m &&
    m.version === 1 &&
    typeof m.agentId === "string" &&
    typeof m.scopeKey === "string" &&
    typeof m.configHash === "string" &&
    typeof m.createdAt === "number"
  );
}

/** The marker of the instance at `dir` and its mtime; undefined when there is none (or it is torn). */
export async function readMarker(
  dir: string,
): Promise<{ marker: BwrapMarker; lastUsedAt: number } | undefined> {
  const path = join(dir, MARKER);
  try {
    const [text, info] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    const parsed: unknown = JSON.parse(text);
    return isMarker(parsed) ? { marker: parsed, lastUsedAt: info.mtimeMs } : undefined;
  } catch (err) {
    if (errnoCode(err) === "ENOENT" || err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** Creates the instance dirs with the sandbox's passwd/group; the marker is written last (by commit). */
export async function prepareInstance(dir: string): Promise<InstanceDirs> {
  const dirs = subDirs(dir);
  await Promise.all([dirs.home, dirs.tmp, dirs.etc].map((d) => mkdir(d, { recursive: true })));
  await chmod(dirs.tmp, 0o1777);
  const passwd = `root:x:0:0:root:/root:/bin/sh\nsandbox:x:1000:1000:sandbox:/home/sandbox:/bin/sh\n`;
  await writeFile(join(dirs.etc, "passwd"), passwd);
  await writeFile(join(dirs.etc, "group"), "root:x:0:\nsandbox:x:1000:\n");
  return dirs;
}

/** Writes the marker: from here on the instance counts as created. */
export async function commitInstance(dir: string, marker: BwrapMarker): Promise<void> {
  await writeFile(join(dir, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
}

/** Marks the instance used now (its marker's mtime). */
export async function touchInstance(dir: string, now: number): Promise<void> {
  const when = new Date(now);
  await utimes(join(dir, MARKER), when, when);
}

/** Deletes an instance dir (home, tmp, marker); the sandbox workspace is elsewhere and stays. */
export async function removeInstanceDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Every instance under the given workspace roots (dirs without a valid marker are skipped). */
export async function listInstances(roots: string[]): Promise<SandboxInstance[]> {
  const out: SandboxInstance[] = [];
  for (const root of roots) {
    const base = join(root, BWRAP_INSTANCES_DIR);
    let names: string[];
    try {
      names = await readdir(base);
    } catch (err) {
      if (errnoCode(err) === "ENOENT") continue;
      throw err;
    }
    for (const name of names.sort()) {
      const dir = join(base, name);
      const found = await readMarker(dir);
      if (!found) continue;
      const { marker, lastUsedAt } = found;
      out.push({
        backend: "bwrap",
        id: dir,
        agentId: marker.agentId,
        sessionKey: marker.sessionKey,
        scope: marker.scope,
        scopeKey: marker.scopeKey,
        configHash: marker.configHash,
        createdAt: marker.createdAt,
        lastUsedAt,
        running: false,
      });
    }
  }
  return out;
}
