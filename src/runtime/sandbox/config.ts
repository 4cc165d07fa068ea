// An agent's effective sandbox settings: its own `sandbox` block over `agents.defaults.sandbox`, key by
// key (OpenClaw's merge: docker/prune fields one by one, docker.env merged, docker.binds concatenated
// except under scope "shared"), each value with the config key that decided it (for `sandbox explain`).
import { formatConfigPath } from "../../config/config-path.js";
import { defaultsValuePath, type ResolvedConfig } from "../../config/resolve.js";
import { normalizeAgentId } from "../../routing/ids.js";
import { locateAgentEntry } from "../tools/config.js";
import type { SandboxBackendId, SandboxScope, WorkspaceAccess } from "./backend.js";

/** A setting and where it came from: a config path, or "default". */
export interface Sourced<T> {
  value: T;
  source: string;
}

/** The sandbox settings of one agent, every field resolved with its source. */
export interface EffectiveSandboxConfig {
  agentId: string;
  backend: Sourced<SandboxBackendId>;
  scope: Sourced<SandboxScope>;
  workspaceAccess: Sourced<WorkspaceAccess>;
  /** As configured (`~` not expanded); undefined: `<stateDir>/sandboxes`. */
  workspaceRoot: Sourced<string | undefined>;
  docker: {
    image: Sourced<string>;
    setupCommand: Sourced<string | undefined>;
    network: Sourced<string>;
    user: Sourced<string | undefined>;
    readOnlyRoot: Sourced<boolean>;
    env: Sourced<Record<string, string>>;
    binds: Sourced<string[]>;
    memory: Sourced<string | number | undefined>;
    cpus: Sourced<number | undefined>;
    pidsLimit: Sourced<number | undefined>;
    capDrop: Sourced<string[]>;
  };
  prune: { idleHours: Sourced<number>; maxAgeDays: Sourced<number> };
}

/** OpenClaw's default sandbox image name (built by `pincer sandbox setup`). */
export const DEFAULT_SANDBOX_IMAGE = "openclaw-sandbox:bookworm-slim";
/** OpenClaw's prune defaults: idle for 24 hours or older than 7 days. */
export const DEFAULT_PRUNE = Object.freeze({ idleHours: 24, maxAgeDays: 7 });

type Block = Record<string, unknown>;

function asBlock(value: unknown): Block | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Block) : undefined;
}

interface Layer {
  block: Block | undefined;
  path: string;
}

/** The first layer (agent, then defaults) holding `key` as accepted by `pick`. */
function pickFrom<T>(
  layers: Layer[],
  key: string,
  pick: (raw: unknown) => T | undefined,
): Sourced<T> | undefined {
  for (const layer of layers) {
    const value = pick(layer.block?.[key]);
    if (value !== undefined) return { value, source: `${layer.path}.${key}` };
  }
  return undefined;
}

function oneOf<T extends string>(values: readonly T[]): (raw: unknown) => T | undefined {
  return (raw) =>
    typeof raw === "string" && (values as readonly string[]).includes(raw) ? (raw as T) : undefined;
}

const str = (raw: unknown) => (typeof raw === "string" && raw.trim() !== "" ? raw : undefined);
const num = (raw: unknown) => (typeof raw === "number" && Number.isFinite(raw) ? raw : undefined);
const bool = (raw: unknown) => (typeof raw === "boolean" ? raw : undefined);
const strList = (raw: unknown) =>
  Array.isArray(raw) ? raw.filter((item): item is string => typeof item === "string") : undefined;
const memory = (raw: unknown) => str(raw) ?? num(raw);

function withDefault<T>(found: Sourced<T> | undefined, value: T): Sourced<T> {
  return found ?? { value, source: "default" };
}

function scopeOf(layers: Layer[]): Sourced<SandboxScope> {
  const scope = pickFrom(layers, "scope", oneOf(["session", "agent", "shared"] as const));
  if (scope) return scope;
  // Legacy `perSession`: true = one sandbox per session, false = one per agent.
  const perSession = pickFrom(layers, "perSession", bool);
  if (perSession)
    return { value: perSession.value ? "session" : "agent", source: perSession.source };
  return { value: "session", source: "default" };
}

function mergedEnv(layers: Layer[]): Sourced<Record<string, string>> {
  const env: Record<string, string> = {};
  const sources: string[] = [];
  for (const layer of [...layers].reverse()) {
    const block = asBlock(layer.block?.env);
    if (!block) continue;
    for (const [key, value] of Object.entries(block))
      if (typeof value === "string") env[key] = value;
    sources.push(`${layer.path}.env`);
  }
  return { value: env, source: sources.length ? sources.join(" + ") : "default" };
}

function mergedBinds(layers: Layer[]): Sourced<string[]> {
  const binds: string[] = [];
  const sources: string[] = [];
  for (const layer of [...layers].reverse()) {
    const list = strList(layer.block?.binds);
    if (!list?.length) continue;
    binds.push(...list);
    sources.push(`${layer.path}.binds`);
  }
  return { value: binds, source: sources.length ? sources.join(" + ") : "default" };
}

/** The effective sandbox settings of `agentId` (mode is resolved by sandbox-policy.ts). */
export function resolveEffectiveSandbox(
  cfg: ResolvedConfig,
  agentId: string,
): EffectiveSandboxConfig {
  const id = normalizeAgentId(agentId);
  const located = locateAgentEntry(cfg, id);
  const own: Layer = { block: asBlock(located.entry?.sandbox), path: `${located.path}.sandbox` };
  const defaults: Layer = {
    block: asBlock(cfg.defaults.sandbox),
    path: formatConfigPath(defaultsValuePath(cfg, ["sandbox"])),
  };
  const layers = [own, defaults];
  const scope = scopeOf(layers);
  const dockerLayers = layers.map((layer) => ({
    block: asBlock(layer.block?.docker),
    path: `${layer.path}.docker`,
  }));
  // Under scope "shared" one sandbox serves every agent: per-agent binds are ignored (OpenClaw).
  const bindLayers = scope.value === "shared" ? dockerLayers.slice(1) : dockerLayers;
  const pruneLayers = layers.map((layer) => ({
    block: asBlock(layer.block?.prune),
    path: `${layer.path}.prune`,
  }));
  const d = (key: string) => pickFrom(dockerLayers, key, str);
  return {
    agentId: id,
    backend: withDefault(
      pickFrom(layers, "backend", oneOf(["docker", "bwrap"] as const)),
      "docker",
    ),
    scope,
    workspaceAccess: withDefault(
      pickFrom(layers, "workspaceAccess", oneOf(["none", "ro", "rw"] as const)),
      "none",
    ),
    workspaceRoot: withDefault<string | undefined>(
      pickFrom(layers, "workspaceRoot", str),
      undefined,
    ),
    docker: {
      image: withDefault(d("image"), DEFAULT_SANDBOX_IMAGE),
      setupCommand: withDefault<string | undefined>(d("setupCommand"), undefined),
      network: withDefault(d("network"), "none"),
      user: withDefault<string | undefined>(d("user"), undefined),
      readOnlyRoot: withDefault(pickFrom(dockerLayers, "readOnlyRoot", bool), true),
      env: mergedEnv(dockerLayers),
      binds: mergedBinds(bindLayers),
      memory: withDefault<string | number | undefined>(
        pickFrom(dockerLayers, "memory", memory),
        undefined,
      ),
      cpus: withDefault<number | undefined>(pickFrom(dockerLayers, "cpus", num), undefined),
      pidsLimit: withDefault<number | undefined>(
        pickFrom(dockerLayers, "pidsLimit", num),
        undefined,
      ),
      capDrop: withDefault(pickFrom(dockerLayers, "capDrop", strList), ["ALL"]),
    },
    prune: {
      idleHours: withDefault(pickFrom(pruneLayers, "idleHours", num), DEFAULT_PRUNE.idleHours),
      maxAgeDays: withDefault(pickFrom(pruneLayers, "maxAgeDays", num), DEFAULT_PRUNE.maxAgeDays),
    },
  };
}
