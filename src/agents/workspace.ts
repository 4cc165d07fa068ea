// Seeding an agent workspace: the folder, `memory/` and the bootstrap templates. Existing files
// are never touched: each file is created with an exclusive open, so a concurrent seeder or a
// user's edit always wins and a second run is a no-op.
import { lstat, mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { WORKSPACE_TEMPLATES } from "./templates.js";

/** The first-run ritual file; present means the ritual has not been completed yet. */
export const BOOTSTRAP_FILENAME = "BOOTSTRAP.md";
/** Folder of daily notes (`memory/YYYY-MM-DD.md`); never injected into the prompt. */
export const MEMORY_DIRNAME = "memory";

/** Files whose presence means the workspace is already in use (so no BOOTSTRAP.md is seeded). */
export const WORKSPACE_MARKER_FILES: readonly string[] = [
  ...WORKSPACE_TEMPLATES.map((template) => template.name).filter(
    (name) => name !== BOOTSTRAP_FILENAME,
  ),
  "MEMORY.md",
  "memory.md",
];

/** Inputs for {@link seedWorkspace}. */
export interface SeedWorkspaceParams {
  /** Workspace folder (absolute, or relative to the process cwd). */
  dir: string;
  /** `skipBootstrap` from the config: only the folder is ensured, no files are written. */
  skipBootstrap?: boolean;
}

/** What {@link seedWorkspace} did; names are relative to the workspace (`memory/` for the folder). */
export interface SeedWorkspaceResult {
  dir: string;
  /** True when the workspace folder itself did not exist before. */
  dirCreated: boolean;
  /** Entries written by this call, in template order. */
  created: string[];
  /** Template files left alone because they already existed. */
  skipped: string[];
  /** True when seeding was turned off by `skipBootstrap`. */
  bootstrapSkipped: boolean;
  /** True when none of the bootstrap files existed (BOOTSTRAP.md was then due). */
  brandNew: boolean;
}

function errnoCode(err: unknown): string | undefined {
  return err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
}

/** lstat-based, so a dangling symlink counts as present (an exclusive create would fail on it too). */
async function pathExists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if (errnoCode(err) === "ENOENT" || errnoCode(err) === "ENOTDIR") return false;
    throw err;
  }
}

/** Writes `content` only if `path` does not exist; false when something is already there. */
async function createExclusive(path: string, content: string): Promise<boolean> {
  try {
    await writeFile(path, content, { encoding: "utf8", flag: "wx" });
    return true;
  } catch (err) {
    if (errnoCode(err) === "EEXIST") return false;
    throw err;
  }
}

async function ensureMemoryDir(dir: string): Promise<boolean> {
  try {
    await mkdir(join(dir, MEMORY_DIRNAME));
    return true;
  } catch (err) {
    if (errnoCode(err) === "EEXIST") return false;
    throw err;
  }
}

/** True when none of the bootstrap files (nor MEMORY.md) exist yet: a workspace nobody has used. */
export async function isBrandNewWorkspace(dir: string): Promise<boolean> {
  const present = await Promise.all(
    WORKSPACE_MARKER_FILES.map((name) => pathExists(join(resolve(dir), name))),
  );
  return !present.includes(true);
}

/** True while BOOTSTRAP.md exists with some text: the first-run ritual is still pending. */
export async function isBootstrapPending(dir: string): Promise<boolean> {
  try {
    const text = await readFile(join(resolve(dir), BOOTSTRAP_FILENAME), "utf8");
    return text.trim() !== "";
  } catch (err) {
    const code = errnoCode(err);
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return false;
    throw err;
  }
}

/** Creates the workspace folder and any missing template file; never overwrites. Race-safe. */
export async function seedWorkspace(params: SeedWorkspaceParams): Promise<SeedWorkspaceResult> {
  const dir = resolve(params.dir);
  const dirCreated = (await mkdir(dir, { recursive: true })) !== undefined;
  const base = { dir, dirCreated, created: [] as string[], skipped: [] as string[] };
  if (params.skipBootstrap === true) return { ...base, bootstrapSkipped: true, brandNew: false };

  const brandNew = await isBrandNewWorkspace(dir);
  const written = new Set<string>();
  const skipped = new Set<string>();
  // BOOTSTRAP.md goes first: if seeding is interrupted after it, the next run still has it;
  // the other way round the next run would see AGENTS.md and never write it.
  const ordered = [
    ...WORKSPACE_TEMPLATES.filter((template) => template.name === BOOTSTRAP_FILENAME),
    ...WORKSPACE_TEMPLATES.filter((template) => template.name !== BOOTSTRAP_FILENAME),
  ];
  for (const template of ordered) {
    const path = join(dir, template.name);
    if (template.name === BOOTSTRAP_FILENAME && !brandNew) {
      if (await pathExists(path)) skipped.add(template.name);
      continue;
    }
    if (await createExclusive(path, template.content)) written.add(template.name);
    else skipped.add(template.name);
  }
  const names = WORKSPACE_TEMPLATES.map((template) => template.name);
  const created = names.filter((name) => written.has(name));
  if (await ensureMemoryDir(dir)) created.push(`${MEMORY_DIRNAME}/`);
  return {
    ...base,
    created,
    skipped: names.filter((name) => skipped.has(name)),
    bootstrapSkipped: false,
    brandNew,
  };
}
