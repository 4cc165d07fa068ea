// The config a long-running process (the gateway, a worker) runs with, kept live: the config file and
// its $include files are watched (fs.watch on their directories, debounced). A valid change swaps the
// config for new runs; an invalid one (syntax or schema) or one the process refuses (the gateway: auth
// that would weaken, see gateway/auth/reload-policy.ts) is logged once and kept visible — status() says
// which config runs (its hash and load time) and what the file holds now (its hash, validity and
// located issues) — until the file is fixed. Changes to the process's restart-only keys (the
// gateway's port and bind, the cluster engines) are logged as needing a restart.
import { existsSync, type FSWatcher, watch } from "node:fs";
import { basename, dirname } from "node:path";
import type { Logger } from "../lib/logger.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import type { ConfigIssue } from "./config-issue.js";
import { getConfigValue } from "./config-path.js";
import { formatConfigIssues } from "./format-issues.js";
import { type LoadConfigOptions, type LoadedConfig, loadConfig } from "./load.js";
import { redactIssues } from "./redaction.js";
import type { ResolvedConfig } from "./resolve.js";
import { configFileHash, readConfigSnapshot } from "./write-lock.js";

/** Why a reload was not applied. */
export type ReloadRefusalReason = "invalid" | "auth-weakened" | "auth-unusable";

/** A reload the gateway did not apply, and why. */
export interface ReloadRefusal {
  reason: ReloadRefusalReason;
  message: string;
  issues: ConfigIssue[];
}

/** Outcome of a reload. */
export type ReloadResult =
  | { ok: true; changed: boolean; restartNeeded: string[] }
  | ({ ok: false } & ReloadRefusal);

/** Where the running config and the file stand (for health, status and config.get). */
export interface LiveConfigStatus {
  path: string;
  /** The config the gateway runs with: the hash of the main file's bytes it came from, and when. */
  running: { hash: string; loadedAt: number };
  /** The main file as it is now. */
  file: { hash: string; exists: boolean; valid: boolean; issues: ConfigIssue[] };
  /** True when the running config is what the file holds now. */
  inSync: boolean;
  /** The last reload the gateway refused, while the file still holds that content. */
  rejected?: { at: number; reason: ReloadRefusalReason; message: string; hash: string };
  /** One line for humans when the file and the running config differ. */
  warning?: string;
}

/** Hash of a file's bytes (`""` for a missing file): the `baseHash` of config writes. */
export function fileHash(path: string): string {
  return configFileHash(path);
}

function valueAt(config: unknown, path: string): unknown {
  const read = getConfigValue(config, path);
  return read.ok ? read.value : undefined;
}

/** Which of `keys` (dotted paths, e.g. `cluster.queue`) differ between two configs, in order. */
export function changedKeys(
  prev: OpenClawConfig,
  next: OpenClawConfig,
  keys: readonly string[],
): string[] {
  return keys.filter(
    (key) => JSON.stringify(valueAt(prev, key)) !== JSON.stringify(valueAt(next, key)),
  );
}

/** Options of {@link LiveConfig}. */
export interface LiveConfigOptions {
  load: LoadConfigOptions;
  initial: LoadedConfig<OpenClawConfig>;
  logger: Logger;
  now: () => number;
  /** Dotted keys the process reads only at start: a change is applied to the file's view, logged as
   * needing a restart and reported in `restartNeeded`. */
  restartKeys: readonly string[];
  /** Refuses a valid config the gateway must not switch to while running (undefined = accept). */
  vet?: (
    next: LoadedConfig<OpenClawConfig>,
    running: LoadedConfig<OpenClawConfig>,
  ) => ReloadRefusal | undefined;
  onChange: (next: OpenClawConfig) => void;
  /** Checks the gateway adds to every load of the file, as at start (unknown model refs). */
  check?: (loaded: LoadedConfig<OpenClawConfig>) => LoadedConfig<OpenClawConfig>;
}

interface Loaded {
  loaded: LoadedConfig<OpenClawConfig>;
  hash: string;
}

/** The live config holder. */
export class LiveConfig {
  private current: Loaded;
  private loadedAt: number;
  private rejected: (ReloadRefusal & { at: number; hash: string }) | undefined;
  private inspected: { hash: string; loaded: LoadedConfig<OpenClawConfig> } | undefined;
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: LiveConfigOptions) {
    this.current = { loaded: options.initial, hash: fileHash(options.initial.path) };
    this.loadedAt = options.now();
  }

  /** The loaded config (path, files, issues). */
  get loaded(): LoadedConfig<OpenClawConfig> {
    return this.current.loaded;
  }

  /** Options the config is loaded with (env, profile, paths, explicit path). */
  get loadOptions(): LoadConfigOptions {
    return this.options.load;
  }

  /** The file's config as loaded (what config.get/patch and validation are about). */
  get config(): OpenClawConfig {
    return this.current.loaded.config;
  }

  /** The resolved config new runs and every area use, computed once per (re)load (config/resolve.ts). */
  get resolved(): ResolvedConfig {
    return this.current.loaded.resolved;
  }

  /** Loads the file as it is now, with the hash of exactly the bytes loaded. */
  private loadNow(): Loaded {
    const path = this.current.loaded.path;
    const snapshot = readConfigSnapshot(path);
    const raw = loadConfig<OpenClawConfig>({
      ...this.options.load,
      configPath: path,
      ...(snapshot.exists ? { text: snapshot.text } : {}),
    });
    const loaded = this.options.check ? this.options.check(raw) : raw;
    return { loaded, hash: snapshot.hash };
  }

  /** Reloads from disk; keeps the running config when the new one is invalid or refused. */
  reload(reason: string): ReloadResult {
    const next = this.loadNow();
    const refusal = next.loaded.valid
      ? this.options.vet?.(next.loaded, this.current.loaded)
      : invalidRefusal(next.loaded);
    if (refusal) {
      this.refuse({ refusal, hash: next.hash, reason });
      return { ok: false, ...refusal };
    }
    const prev = this.current.loaded;
    const changed = JSON.stringify(prev.config) !== JSON.stringify(next.loaded.config);
    this.current = next;
    if (this.rejected) this.options.logger.info({ reason }, "config file accepted again");
    this.rejected = undefined;
    const restartNeeded = changedKeys(prev.config, next.loaded.config, this.options.restartKeys);
    if (changed) {
      this.loadedAt = this.options.now();
      this.options.logger.info({ reason, path: next.loaded.path }, "config reloaded");
      for (const key of restartNeeded)
        this.options.logger.warn(`config: ${key} changed; needs restart to take effect`);
      this.options.onChange(next.loaded.config);
    }
    if (next.loaded.files.join("\n") !== prev.files.join("\n") && this.watchers.length > 0)
      this.watch();
    return { ok: true, changed, restartNeeded };
  }

  private refuse(params: { refusal: ReloadRefusal; hash: string; reason: string }): void {
    const { refusal, hash, reason } = params;
    const repeated = this.rejected?.hash === hash && this.rejected.reason === refusal.reason;
    this.rejected = { ...refusal, at: repeated ? this.rejected!.at : this.options.now(), hash };
    if (repeated) return;
    const path = this.current.loaded.path;
    const details = refusal.issues.length
      ? `\n${formatConfigIssues({ path, issues: redactIssues(refusal.issues) })}`
      : "";
    this.options.logger.warn(
      { reason, path, hash },
      `config reload rejected: keeping the running config (${refusal.message})${details}`,
    );
  }

  /** The main file as it is now, loaded and checked (the running config when unchanged; re-checked
   * only when its hash changes). */
  inspectFile(): { hash: string; loaded: LoadedConfig<OpenClawConfig> } {
    const hash = fileHash(this.current.loaded.path);
    if (hash === this.current.hash) return { hash, loaded: this.current.loaded };
    if (this.inspected?.hash !== hash) {
      const now = this.loadNow();
      this.inspected = { hash: now.hash, loaded: now.loaded };
    }
    return this.inspected;
  }

  /** Where the running config and the file stand now (issues redacted, for clients). */
  status(): LiveConfigStatus {
    const { hash, loaded: file } = this.inspectFile();
    const rejected = this.rejected?.hash === hash ? this.rejected : undefined;
    const inSync = hash === this.current.hash;
    const status: LiveConfigStatus = {
      path: this.current.loaded.path,
      running: { hash: this.current.hash, loadedAt: this.loadedAt },
      file: { hash, exists: file.exists, valid: file.valid, issues: redactIssues(file.issues) },
      inSync,
      ...(rejected
        ? {
            rejected: {
              at: rejected.at,
              reason: rejected.reason,
              message: rejected.message,
              hash: rejected.hash,
            },
          }
        : {}),
    };
    const warning = describeDrift(status);
    return warning ? { ...status, warning } : status;
  }

  /** Watches the config and its includes (directory watches survive atomic renames). */
  watch(debounceMs = 150): void {
    this.unwatch();
    const loaded = this.current.loaded;
    const files = loaded.files.length ? loaded.files : [loaded.path];
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
          this.options.logger.warn({ dir, error: String(err) }, "config watcher failed");
        });
        this.watchers.push(watcher);
      } catch (err) {
        this.options.logger.warn({ dir, error: String(err) }, "cannot watch config dir");
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
        this.options.logger.error({ error: String(err) }, "config reload failed");
      }
    }, debounceMs);
  }

  private unwatch(): void {
    for (const watcher of this.watchers.splice(0)) watcher.close();
  }
}

function invalidRefusal(loaded: LoadedConfig<OpenClawConfig>): ReloadRefusal {
  const issues = loaded.issues.filter((issue) => issue.severity === "error");
  const count = `${issues.length} error${issues.length === 1 ? "" : "s"}`;
  return { reason: "invalid", message: `the file is invalid: ${count}`, issues };
}

function describeDrift(status: LiveConfigStatus): string | undefined {
  if (status.inSync) return undefined;
  const running = `the gateway runs the config loaded at ${new Date(status.running.loadedAt).toISOString()} (hash ${status.running.hash.slice(0, 12) || "none: no file"})`;
  if (status.rejected) return `config reload rejected: ${status.rejected.message}; ${running}`;
  if (!status.file.valid) {
    const errors = status.file.issues.filter((issue) => issue.severity === "error").length;
    return `config file ${status.path} is invalid (${errors} error${errors === 1 ? "" : "s"}); ${running}`;
  }
  return `config file changed and is not loaded yet; ${running}`;
}
