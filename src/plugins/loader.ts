// Loading plugins once (at gateway start, or for `pincer plugins list`): discover them, apply
// `plugins.enabled`, `plugins.deny` (wins), `plugins.allow` and `plugins.entries.<id>.enabled`,
// import each enabled module and call its `register(api)` with its own config. A plugin that cannot
// be imported, exports no register function or whose register throws is recorded as `error` (its
// registrations are dropped) and logged; loading never fails as a whole.
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import type { Logger } from "../lib/logger.js";
import type { PluginsConfig } from "../protocol/config/index.js";
import { createPluginApi, type HookBudgetConfig } from "./api.js";
import { discoverPlugins, type PluginCandidate } from "./discover.js";
import type { PluginApi, PluginRecord, PluginRegistry } from "./types.js";

/** Inputs of {@link loadPlugins}. */
export interface LoadPluginsParams {
  config: PluginsConfig | undefined;
  stateDir: string;
  home: string;
  /** The config file's folder: relative load paths resolve there. */
  baseDir: string;
  logger: Logger;
  /** How long an async `register` may take (default 10 s). */
  registerTimeoutMs?: number;
}

/** One `plugins.entries.<id>` as the loader reads it. */
interface EntryConfig {
  enabled?: boolean;
  config?: Record<string, unknown>;
  hooks?: HookBudgetConfig;
}

type RegisterFn = (api: PluginApi) => unknown;

function emptyRegistry(): PluginRegistry {
  return { plugins: [], hooks: [], tools: [], commands: [], methods: [] };
}

function recordOf(candidate: PluginCandidate): PluginRecord {
  return {
    id: candidate.id,
    ...(candidate.name ? { name: candidate.name } : {}),
    ...(candidate.description ? { description: candidate.description } : {}),
    ...(candidate.version ? { version: candidate.version } : {}),
    source: candidate.source,
    origin: candidate.origin,
    status: "loaded",
    diagnostics: [],
    hooks: [],
    tools: [],
    commands: [],
    methods: [],
  };
}

function entryOf(config: PluginsConfig | undefined, id: string): EntryConfig | undefined {
  const entry = (config?.entries as Record<string, unknown> | undefined)?.[id];
  return entry && typeof entry === "object" ? (entry as EntryConfig) : undefined;
}

/** Why a found plugin is not loaded, if it is not. */
function disabledReason(config: PluginsConfig | undefined, id: string): string | undefined {
  if (config?.enabled === false) return "plugins.enabled is false";
  if (config?.deny?.includes(id)) return "denied by plugins.deny";
  if (config?.allow && config.allow.length > 0 && !config.allow.includes(id))
    return "not in plugins.allow";
  if (entryOf(config, id)?.enabled === false) return `plugins.entries.${id}.enabled is false`;
  return undefined;
}

function registerOf(mod: Record<string, unknown>): { register?: RegisterFn; id?: string } {
  const main = mod.default as unknown;
  const object = main && typeof main === "object" ? (main as Record<string, unknown>) : mod;
  const fn = [main, object.register, object.activate, mod.register].find(
    (item): item is RegisterFn => typeof item === "function",
  );
  const id = typeof object.id === "string" ? object.id : undefined;
  return { ...(fn ? { register: fn } : {}), ...(id ? { id } : {}) };
}

function withLimit<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Imports one plugin and runs its register; on failure its registrations are dropped. */
async function loadOne(input: {
  candidate: PluginCandidate;
  record: PluginRecord;
  registry: PluginRegistry;
  params: LoadPluginsParams;
}): Promise<void> {
  const { candidate, record, registry, params } = input;
  const log = params.logger.child({ plugin: record.id });
  const before = {
    hooks: registry.hooks.length,
    tools: registry.tools.length,
    commands: registry.commands.length,
    methods: registry.methods.length,
  };
  try {
    const mod = (await import(pathToFileURL(candidate.entry).href)) as Record<string, unknown>;
    const { register, id } = registerOf(mod);
    if (!register) throw new Error("the module exports no register function");
    if (id && id !== record.id)
      record.diagnostics.push(`the module says its id is "${id}"; using "${record.id}"`);
    const entry = entryOf(params.config, record.id);
    const api = createPluginApi({
      record,
      rootDir: dirname(candidate.entry),
      pluginConfig: entry?.config && typeof entry.config === "object" ? entry.config : {},
      registry,
      logger: log,
      ...(entry?.hooks ? { budgets: entry.hooks } : {}),
    });
    const result = register(api);
    if (result && typeof (result as Promise<unknown>).then === "function") {
      await withLimit(result as Promise<unknown>, params.registerTimeoutMs ?? 10_000, "register");
    }
    log.info({ source: record.source }, "plugin loaded");
  } catch (err) {
    registry.hooks.length = before.hooks;
    registry.tools.length = before.tools;
    registry.commands.length = before.commands;
    registry.methods.length = before.methods;
    Object.assign(record, { status: "error", error: message(err) });
    record.hooks = [];
    record.tools = [];
    record.commands = [];
    record.methods = [];
    log.error({ source: record.source, error: message(err) }, "plugin failed to load");
  }
}

/** Discovers and loads the configured plugins; every one found (or named) gets a record. */
export async function loadPlugins(params: LoadPluginsParams): Promise<PluginRegistry> {
  const registry = emptyRegistry();
  const candidates = discoverPlugins({
    loadPaths: params.config?.load?.paths ?? [],
    stateDir: params.stateDir,
    home: params.home,
    baseDir: params.baseDir,
  });
  const seen = new Map<string, string>();
  for (const candidate of candidates) {
    const record = recordOf(candidate);
    registry.plugins.push(record);
    const first = seen.get(candidate.id);
    const reason = first
      ? `overridden by the plugin of the same id at ${first}`
      : disabledReason(params.config, candidate.id);
    if (!first) seen.set(candidate.id, candidate.source);
    if (reason) Object.assign(record, { status: "disabled", error: reason });
    else if (candidate.problem) {
      Object.assign(record, { status: "error", error: candidate.problem });
      params.logger.error({ plugin: record.id, source: record.source }, candidate.problem);
    } else await loadOne({ candidate, record, registry, params });
  }
  for (const id of Object.keys(params.config?.entries ?? {})) {
    if (seen.has(id)) continue;
    const error = "no plugin with this id was found (plugins.load.paths, <stateDir>/extensions)";
    const off = entryOf(params.config, id)?.enabled === false;
    registry.plugins.push({
      ...recordOf({ id, entry: "", source: "", origin: "config" }),
      origin: "entry",
      status: off ? "disabled" : "error",
      error,
    });
    if (!off) params.logger.warn({ plugin: id }, `plugins.entries.${id}: ${error}`);
  }
  return registry;
}
