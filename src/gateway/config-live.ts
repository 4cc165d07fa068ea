// The config the gateway runs with, kept live: the config file and its $include files are watched
// (fs.watch on their directories, debounced); a valid change swaps the config for new runs, an
// invalid one is logged and ignored, and port/bind changes are logged as needing a restart.
import { createHash } from "node:crypto";
import { existsSync, type FSWatcher, readFileSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import { type LoadConfigOptions, type LoadedConfig, loadConfig } from "../config/index.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import type { GatewayLogger } from "./logger.js";

/** Outcome of a reload. */
export type ReloadResult =
  | { ok: true; changed: boolean; restartNeeded: string[] }
  | { ok: false; issues: Array<{ path: string; message: string }> };

/** Hash of a file's bytes (`""` for a missing file): the `baseHash` of config writes. */
export function fileHash(path: string): string {
  if (!existsSync(path)) return "";
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function restartKeys(prev: OpenClawConfig, next: OpenClawConfig): string[] {
  const keys: string[] = [];
  if (prev.gateway?.port !== next.gateway?.port) keys.push("gateway.port");
  if (prev.gateway?.bind !== next.gateway?.bind) keys.push("gateway.bind");
  if (prev.gateway?.customBindHost !== next.gateway?.customBindHost)
    keys.push("gateway.customBindHost");
  return keys;
}

/** The live config holder. */
export class LiveConfig {
  private current: LoadedConfig<OpenClawConfig>;
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly options: {
      load: LoadConfigOptions;
      initial: LoadedConfig<OpenClawConfig>;
      logger: GatewayLogger;
      onChange: (next: OpenClawConfig) => void;
    },
  ) {
    this.current = options.initial;
  }

  /** The loaded config (path, files, issues). */
  get loaded(): LoadedConfig<OpenClawConfig> {
    return this.current;
  }

  /** Options the config is loaded with (env, profile, paths, explicit path). */
  get loadOptions(): LoadConfigOptions {
    return this.options.load;
  }

  /** The config new runs use. */
  get config(): OpenClawConfig {
    return this.current.config;
  }

  /** Reloads from disk; keeps the old config when the new one is invalid. */
  reload(reason: string): ReloadResult {
    const next = loadConfig<OpenClawConfig>(this.options.load);
    if (!next.valid) {
      const issues = next.issues
        .filter((issue) => issue.severity === "error")
        .map((issue) => ({ path: issue.path, message: issue.message }));
      this.options.logger.warn("config reload rejected: keeping the previous config", {
        reason,
        issues,
      });
      return { ok: false, issues };
    }
    const prev = this.current;
    const changed = JSON.stringify(prev.config) !== JSON.stringify(next.config);
    this.current = next;
    const restartNeeded = restartKeys(prev.config, next.config);
    if (changed) {
      this.options.logger.info("config reloaded", { reason, path: next.path });
      for (const key of restartNeeded)
        this.options.logger.warn(`config: ${key} changed; needs restart to take effect`);
      this.options.onChange(next.config);
    }
    if (next.files.join("\n") !== prev.files.join("\n") && this.watchers.length > 0) this.watch();
    return { ok: true, changed, restartNeeded };
  }

  /** Watches the config and its includes (directory watches survive atomic renames). */
  watch(debounceMs = 150): void {
    this.unwatch();
    const files = this.current.files.length ? this.current.files : [this.current.path];
    const byDir = new Map<string, Set<string>>();
    for (const file of files) {
      const dir = dirname(file);
      byDir.set(dir, (byDir.get(dir) ?? new Set()).add(basename(file)));
    }
    for (const [dir, names] of byDir) {
      if (!existsSync(dir)) continue;
      try {
        const watcher = watch(dir, { persistent: false }, (_event, name) => {
          if (name === null || names.has(name.toString())) this.schedule(debounceMs);
        });
        watcher.on("error", (err) => {
          this.options.logger.warn("config watcher failed", { dir, error: String(err) });
        });
        this.watchers.push(watcher);
      } catch (err) {
        this.options.logger.warn("cannot watch config dir", { dir, error: String(err) });
      }
    }
  }

  /** Stops watching. */
  close(): void {
    this.closed = true;
    this.unwatch();
    clearTimeout(this.timer);
  }

  private schedule(debounceMs: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      try {
        this.reload("file changed");
      } catch (err) {
        this.options.logger.error("config reload failed", { error: String(err) });
      }
    }, debounceMs);
  }

  private unwatch(): void {
    for (const watcher of this.watchers.splice(0)) watcher.close();
  }
}
