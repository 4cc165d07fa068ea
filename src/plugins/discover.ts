// Finding plugins (OpenClaw's order): `plugins.load.paths` (a module file, or a folder with an
// `openclaw.plugin.json` manifest and/or a package.json naming its entry), then the global
// extensions folder `<stateDir>/extensions/*`. The first plugin of an id wins; later copies are
// reported as disabled. Reads the file system only; no plugin code runs here.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { expandHome } from "../config/paths.js";

/** One plugin found on disk (not loaded yet). */
export interface PluginCandidate {
  id: string;
  /** The module file to import. */
  entry: string;
  /** The folder (or file) the plugin was found as. */
  source: string;
  origin: "config" | "global";
  name?: string;
  description?: string;
  version?: string;
  /** Why this candidate cannot load (no entry module found, an unreadable manifest). */
  problem?: string;
}

/** Module file names tried in a folder without a declared entry. */
const INDEX_FILES = ["index.js", "index.mjs", "index.cjs", "index.ts"];
const MODULE_EXTENSIONS = new Set([".js", ".mjs", ".cjs", ".ts", ".mts"]);

function readJson(path: string): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error(`${path} is not a JSON object`);
  return parsed as Record<string, unknown>;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function fileCandidate(file: string, origin: PluginCandidate["origin"]): PluginCandidate {
  const id = basename(file, extname(file));
  return { id, entry: file, source: file, origin };
}

function folderCandidates(dir: string, origin: PluginCandidate["origin"]): PluginCandidate[] {
  let manifest: Record<string, unknown> | undefined;
  let pkg: Record<string, unknown> | undefined;
  try {
    manifest = readJson(join(dir, "openclaw.plugin.json"));
    pkg = readJson(join(dir, "package.json"));
  } catch (err) {
    const problem = `cannot read its manifest: ${err instanceof Error ? err.message : String(err)}`;
    return [{ id: basename(dir), entry: "", source: dir, origin, problem }];
  }
  const info: Pick<PluginCandidate, "name" | "description" | "version"> = {};
  for (const key of ["name", "description", "version"] as const) {
    const value = text(manifest?.[key]) ?? text(pkg?.[key]);
    if (value) info[key] = value;
  }
  const baseId = text(manifest?.id) ?? text(pkg?.name) ?? basename(dir);
  const openclaw = pkg?.openclaw as { extensions?: unknown } | undefined;
  const extensions = Array.isArray(openclaw?.extensions)
    ? openclaw.extensions.filter((item): item is string => typeof item === "string")
    : [];
  if (extensions.length > 1) {
    // A pack: one plugin per listed module, ids `<name>/<fileBase>`.
    return extensions.map((file) => {
      const entry = resolve(dir, file);
      const id = `${baseId}/${basename(file, extname(file))}`;
      return { id, entry, source: dir, origin, ...info };
    });
  }
  const declared = extensions[0] ?? text(manifest?.main) ?? text(pkg?.main);
  const entry = declared
    ? resolve(dir, declared)
    : INDEX_FILES.map((file) => join(dir, file)).find((file) => existsSync(file));
  if (!entry || !existsSync(entry)) {
    const problem = declared
      ? `its entry module ${entry} does not exist`
      : `no entry module: add ${INDEX_FILES.slice(0, 2).join(" or ")}, or name one in package.json`;
    return [{ id: baseId, entry: "", source: dir, origin, problem, ...info }];
  }
  return [{ id: baseId, entry, source: dir, origin, ...info }];
}

function candidatesAt(path: string, origin: PluginCandidate["origin"]): PluginCandidate[] {
  if (!existsSync(path)) {
    return [
      { id: basename(path, extname(path)), entry: "", source: path, origin, problem: "not found" },
    ];
  }
  return isDirectory(path) ? folderCandidates(path, origin) : [fileCandidate(path, origin)];
}

/** Whether `path` is a folder; undefined when it cannot be read (a dangling link). */
function isDirectory(path: string): boolean | undefined {
  try {
    return statSync(path).isDirectory();
  } catch {
    return undefined;
  }
}

function globalCandidates(dir: string): PluginCandidate[] {
  if (!existsSync(dir)) return [];
  const found: PluginCandidate[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    const isDir = isDirectory(path);
    if (isDir === undefined) continue;
    if (!isDir && !MODULE_EXTENSIONS.has(extname(name))) continue;
    found.push(...(isDir ? folderCandidates(path, "global") : [fileCandidate(path, "global")]));
  }
  return found;
}

/** Inputs of {@link discoverPlugins}. */
export interface DiscoverPluginsParams {
  /** `plugins.load.paths` as configured. */
  loadPaths: readonly string[];
  stateDir: string;
  home: string;
  /** Where a relative load path is resolved (the config file's folder). */
  baseDir: string;
}

/** Every plugin found, in precedence order (duplicates of an id included: the loader decides). */
export function discoverPlugins(params: DiscoverPluginsParams): PluginCandidate[] {
  const absolute = (raw: string) =>
    raw.startsWith("~") ? expandHome(raw, params.home) : resolve(params.baseDir, raw);
  const configured = params.loadPaths.flatMap((raw) =>
    candidatesAt(absolute(raw.trim()), "config"),
  );
  return [...configured, ...globalCandidates(join(params.stateDir, "extensions"))];
}

/** The config file's folder, where relative `plugins.load.paths` resolve. */
export function configBaseDir(configPath: string): string {
  return dirname(configPath);
}
