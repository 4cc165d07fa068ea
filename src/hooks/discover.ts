// Finds the hooks: folders with a HOOK.md in `<workspace>/hooks/` (the default agent's workspace),
// `<stateDir>/hooks/` (managed), the hooks bundled with Pincer, and `hooks.internal.load.extraDirs`,
// in that precedence order (a name found twice runs from the higher source; the other is `shadowed`).
// A folder may also be a hook pack: a package.json whose `openclaw.hooks` lists hook folders. Each
// hook needs a handler module beside HOOK.md: handler.js / handler.mjs / index.js / index.mjs, or a
// .ts one when this Node can import TypeScript itself (Node 20 cannot: compile it to .js).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { BinaryLookup } from "../agents/skills/gating.js";
import { isPlainObject } from "../config/config-path.js";
import { expandHome } from "../config/paths.js";
import type { InternalHooksConfig } from "../protocol/config/index.js";
import { evaluateHookEligibility } from "./eligibility.js";
import { parseHookMd } from "./hook-md.js";
import type { HookDiscovery, HookMetadata, HookProblem, HookRecord, HookSource } from "./types.js";

/** Handler file names tried in order (OpenClaw's `handler` / `index`, JavaScript first). */
const JS_HANDLERS = ["handler.js", "handler.mjs", "index.js", "index.mjs"];
const TS_HANDLERS = ["handler.ts", "index.ts"];

/** Inputs of {@link discoverHooks}. */
export interface DiscoverHooksParams {
  /** The default agent's workspace (its `hooks/` folder is searched). */
  workspaceDir: string;
  stateDir: string;
  /** The whole config (requirements may name config paths). */
  config: unknown;
  internal: InternalHooksConfig | undefined;
  env: Record<string, string | undefined>;
  /** The hooks shipped with Pincer (metadata only: they need no folder). */
  bundled: readonly HookMetadata[];
  platform?: string;
  /** Whether this Node imports .ts files natively (default: asks `process.features`). */
  typescript?: boolean;
  home?: string;
}

/** One folder searched. */
export interface HookSourceDir {
  source: HookSource;
  dir: string;
}

/** The folders searched (bundled hooks have none), highest precedence first. */
export function listHookSourceDirs(
  params: Pick<DiscoverHooksParams, "workspaceDir" | "stateDir" | "internal" | "env" | "home">,
): HookSourceDir[] {
  const home = params.home ?? (params.env.HOME?.trim() || homedir());
  const dirs: HookSourceDir[] = [
    { source: "workspace", dir: resolve(params.workspaceDir, "hooks") },
    { source: "managed", dir: resolve(params.stateDir, "hooks") },
  ];
  for (const dir of params.internal?.load?.extraDirs ?? []) {
    if (typeof dir === "string" && dir.trim())
      dirs.push({ source: "extra", dir: expandHome(dir.trim(), home) });
  }
  return dirs;
}

/** Whether this Node strips TypeScript types on import (`process.features.typescript`, Node 22.10+). */
export function nodeImportsTypeScript(): boolean {
  const features = process.features as { typescript?: unknown };
  return typeof features.typescript === "string";
}

function errorCode(err: unknown): string {
  return err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.message) : String(err);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch (err) {
    // Missing or unreadable both mean "no such file here" to a search.
    void err;
    return false;
  }
}

/** Hook folders of a pack's package.json (`openclaw.hooks`), or undefined when it is not a pack. */
function packFolders(dir: string): string[] | undefined {
  const manifest = join(dir, "package.json");
  if (!isFile(manifest)) return undefined;
  try {
    const pkg: unknown = JSON.parse(readFileSync(manifest, "utf8"));
    const hooks =
      isPlainObject(pkg) && isPlainObject(pkg.openclaw) ? pkg.openclaw.hooks : undefined;
    if (!Array.isArray(hooks)) return undefined;
    return hooks
      .filter((item): item is string => typeof item === "string")
      .map((item) => resolve(dir, item));
  } catch (err) {
    // A broken package.json is not a pack; the folder is then looked at as a plain hook folder.
    void err;
    return undefined;
  }
}

/** The hook folders of one source folder; problems are collected, not thrown. */
function scanSource(src: HookSourceDir, problems: HookProblem[]): string[] {
  if (src.source === "extra" && isFile(join(src.dir, "HOOK.md"))) return [src.dir];
  let names: string[];
  try {
    names = readdirSync(src.dir).sort();
  } catch (err) {
    const code = errorCode(err);
    if (code !== "ENOENT" || src.source === "extra") {
      const message = code === "ENOENT" ? "folder not found" : `cannot read folder (${code})`;
      problems.push({ source: src.source, path: src.dir, message });
    }
    return [];
  }
  return names.flatMap((name) => {
    if (name.startsWith(".") || name === "node_modules") return [];
    const dir = join(src.dir, name);
    const pack = packFolders(dir);
    if (pack) return pack.filter((folder) => isFile(join(folder, "HOOK.md")));
    return isFile(join(dir, "HOOK.md")) ? [dir] : [];
  });
}

function findHandler(dir: string, typescript: boolean): { path?: string; problem?: string } {
  const js = JS_HANDLERS.map((name) => join(dir, name)).find(isFile);
  if (js) return { path: js };
  const ts = TS_HANDLERS.map((name) => join(dir, name)).find(isFile);
  if (ts && typescript) return { path: ts };
  if (ts) {
    return {
      problem: `${basename(ts)} needs a build step on Node ${process.versions.node} (it cannot import TypeScript): compile it to ${basename(ts, ".ts")}.js`,
    };
  }
  return { problem: `no handler module (${JS_HANDLERS.join(", ")}) beside HOOK.md` };
}

/** Reads one hook folder into a record (status decided later). */
function readFolder(dir: string, source: HookSource, typescript: boolean): HookRecord {
  const location = dir;
  let text: string;
  try {
    text = readFileSync(join(dir, "HOOK.md"), "utf8");
  } catch (err) {
    return invalidRecord(
      { name: basename(dir), source, location },
      `HOOK.md unreadable (${errorCode(err)})`,
    );
  }
  const parsed = parseHookMd(text, basename(dir));
  if (!parsed.ok) return invalidRecord({ name: basename(dir), source, location }, parsed.error);
  const handler = findHandler(dir, typescript);
  const record = recordOf(parsed.hook, source, location);
  if (handler.path) record.handlerPath = handler.path;
  else {
    record.status = "invalid";
    record.reason = handler.problem ?? "no handler module";
  }
  return record;
}

function recordOf(hook: HookMetadata, source: HookSource, location: string): HookRecord {
  return {
    name: hook.name,
    description: hook.description,
    ...(hook.emoji ? { emoji: hook.emoji } : {}),
    ...(hook.homepage ? { homepage: hook.homepage } : {}),
    events: hook.events,
    source,
    location,
    exportName: hook.exportName,
    requires: hook.requires,
    os: hook.os,
    always: hook.always,
    status: "ready",
  };
}

function invalidRecord(
  at: { name: string; source: HookSource; location: string },
  reason: string,
): HookRecord {
  return {
    ...at,
    description: "",
    events: [],
    exportName: "default",
    requires: { bins: [], anyBins: [], env: [], config: [] },
    os: [],
    always: false,
    status: "invalid",
    reason,
  };
}

/** Discovers every hook with its verdict; the winner of a name comes first among its records. */
export function discoverHooks(params: DiscoverHooksParams): HookDiscovery {
  const problems: HookProblem[] = [];
  const typescript = params.typescript ?? nodeImportsTypeScript();
  const dirs = listHookSourceDirs(params);
  const found: HookRecord[] = [];
  for (const src of dirs.filter((d) => d.source !== "extra")) {
    for (const dir of scanSource(src, problems))
      found.push(readFolder(dir, src.source, typescript));
  }
  for (const hook of params.bundled)
    found.push(recordOf(hook, "bundled", `pincer:bundled/${hook.name}`));
  for (const src of dirs.filter((d) => d.source === "extra")) {
    for (const dir of scanSource(src, problems))
      found.push(readFolder(dir, src.source, typescript));
  }
  const binaries: BinaryLookup = {
    path: params.env.PATH ?? "",
    platform: params.platform ?? process.platform,
    memo: new Map(),
  };
  const winners = new Map<string, HookRecord>();
  for (const record of found) {
    const winner = winners.get(record.name);
    if (winner && record.status !== "invalid") {
      record.status = "shadowed";
      record.reason = `a ${winner.source} hook of the same name wins (${winner.location})`;
      continue;
    }
    if (record.status === "invalid") continue;
    winners.set(record.name, record);
    const verdict = evaluateHookEligibility({
      hook: record,
      config: params.config,
      internal: params.internal,
      env: params.env,
      platform: binaries.platform,
      binaries,
    });
    record.status = verdict.status;
    if (verdict.reason) record.reason = verdict.reason;
  }
  return { hooks: found, problems };
}
