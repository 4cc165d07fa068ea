// From config to a SandboxSpec for one session: the scope key, the host dir mounted at /workspace
// (the agent workspace for ro/rw, a sandbox workspace under workspaceRoot for none), parsed binds
// (none may expose the state dir) and the config hash that decides when a sandbox is recreated.
import { createHash } from "node:crypto";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { expandHome } from "../../config/paths.js";
import { lookupAgent, type ResolvedConfig } from "../../config/resolve.js";
import { toAgentStoreSessionKey } from "../../routing/index.js";
import type { SandboxBind, SandboxResult, SandboxScope, SandboxSpec } from "./backend.js";
import { type EffectiveSandboxConfig, resolveEffectiveSandbox } from "./config.js";

/** Inputs of {@link resolveSandboxSpec}. */
export interface ResolveSandboxSpecParams {
  cfg: ResolvedConfig;
  agentId: string;
  /** The session the tools run for (any form; normalized to the agent's store key). */
  sessionKey: string;
  /** The agent workspace the run uses (mounted for ro/rw); default: the roster's. */
  agentWorkspace?: string;
}

/** `sandbox.workspaceRoot` as an absolute path (`~` expanded), default `<stateDir>/sandboxes`. */
export function sandboxWorkspaceRoot(
  cfg: ResolvedConfig,
  effective: EffectiveSandboxConfig,
): string {
  const raw = effective.workspaceRoot.value;
  return raw ? expandHome(raw, cfg.paths.home) : join(cfg.paths.stateDir, "sandboxes");
}

/** The instance key of a sandbox: per session, per agent, or one for everything. */
export function sandboxScopeKey(params: {
  scope: SandboxScope;
  agentId: string;
  sessionKey: string;
}): string {
  if (params.scope === "session") return `session:${params.sessionKey}`;
  if (params.scope === "agent") return `agent:${params.agentId}`;
  return "shared";
}

/** A scope key as a directory / container name part: readable, unique (hash suffix), safe. */
export function scopeSlug(scopeKey: string): string {
  const readable = scopeKey
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
  const hash = createHash("sha256").update(scopeKey).digest("hex").slice(0, 8);
  return `${readable || "sandbox"}-${hash}`;
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** Parses `host:container[:ro|rw]`; a bind reaching the state dir (or holding it) is refused. */
export function parseBind(
  raw: string,
  ctx: { home: string; stateDir: string },
): SandboxResult<SandboxBind> {
  const parts = raw.split(":");
  const mode = parts.length >= 3 ? parts[parts.length - 1] : undefined;
  const [host, container] = mode !== undefined ? parts.slice(0, -1) : parts;
  if (parts.length < 2 || parts.length > 3 || !host || !container)
    return { ok: false, error: `docker.binds entry "${raw}" is not "host:container[:ro|rw]".` };
  if (mode !== undefined && mode !== "ro" && mode !== "rw")
    return { ok: false, error: `docker.binds entry "${raw}": mode must be ro or rw.` };
  const hostPath = resolve(expandHome(host, ctx.home));
  if (!isAbsolute(container))
    return {
      ok: false,
      error: `docker.binds entry "${raw}": the container path must be absolute.`,
    };
  const stateDir = resolve(ctx.stateDir);
  if (isInside(stateDir, hostPath) || isInside(hostPath, stateDir))
    return {
      ok: false,
      error: `docker.binds entry "${raw}" would expose the state dir ${stateDir}; it is never mounted into a sandbox.`,
    };
  return { ok: true, value: { hostPath, containerPath: container, readOnly: mode === "ro" } };
}

/** Hash of everything that shapes a sandbox (not who uses it): a change means recreate. */
export function sandboxConfigHash(spec: Omit<SandboxSpec, "configHash" | "sessionKey">): string {
  const shape = {
    backend: spec.backend,
    scopeKey: spec.scopeKey,
    workspaceAccess: spec.workspaceAccess,
    workspaceDir: spec.workspaceDir,
    binds: spec.binds,
    network: spec.network,
    env: Object.entries(spec.env).sort(([a], [b]) => a.localeCompare(b)),
    user: spec.user ?? null,
    readOnlyRoot: spec.readOnlyRoot,
    memory: spec.memory ?? null,
    cpus: spec.cpus ?? null,
    pidsLimit: spec.pidsLimit ?? null,
    capDrop: spec.capDrop,
    image: spec.image,
    setupCommand: spec.setupCommand ?? null,
  };
  return createHash("sha256").update(JSON.stringify(shape)).digest("hex").slice(0, 16);
}

/** The spec of the sandbox `sessionKey` of `agentId` runs in, or an error naming the bad key. */
export function resolveSandboxSpec(params: ResolveSandboxSpecParams): SandboxResult<SandboxSpec> {
  const { cfg } = params;
  const agent = lookupAgent(cfg, params.agentId);
  const effective = resolveEffectiveSandbox(cfg, agent.id);
  const sessionKey = toAgentStoreSessionKey({
    agentId: agent.id,
    requestKey: params.sessionKey,
    mainKey: cfg.config.session?.mainKey,
  });
  const scope = effective.scope.value;
  const scopeKey = sandboxScopeKey({ scope, agentId: agent.id, sessionKey });
  const workspaceRoot = sandboxWorkspaceRoot(cfg, effective);
  const access = effective.workspaceAccess.value;
  const workspaceDir =
    access === "none"
      ? join(workspaceRoot, scopeSlug(scopeKey))
      : resolve(params.agentWorkspace ?? agent.workspace);
  const binds: SandboxBind[] = [];
  for (const raw of effective.docker.binds.value) {
    const bind = parseBind(raw, { home: cfg.paths.home, stateDir: cfg.paths.stateDir });
    if (!bind.ok) return { ok: false, error: `${effective.docker.binds.source}: ${bind.error}` };
    binds.push(bind.value);
  }
  const stateDir = resolve(cfg.paths.stateDir);
  if (access !== "none" && isInside(workspaceDir, stateDir))
    return {
      ok: false,
      error: `${effective.workspaceAccess.source} is "${access}" but agent ${agent.id}'s workspace ${workspaceDir} holds the state dir ${stateDir}, which is never mounted into a sandbox; move the workspace or use workspaceAccess "none".`,
    };
  const docker = effective.docker;
  const base = {
    backend: effective.backend.value,
    agentId: agent.id,
    scope,
    scopeKey,
    workspaceAccess: access,
    workspaceDir,
    workspaceRoot,
    binds,
    network: docker.network.value,
    env: docker.env.value,
    readOnlyRoot: docker.readOnlyRoot.value,
    capDrop: docker.capDrop.value,
    image: docker.image.value,
    ...(docker.user.value !== undefined ? { user: docker.user.value } : {}),
    ...(docker.memory.value !== undefined ? { memory: docker.memory.value } : {}),
    ...(docker.cpus.value !== undefined ? { cpus: docker.cpus.value } : {}),
    ...(docker.pidsLimit.value !== undefined ? { pidsLimit: docker.pidsLimit.value } : {}),
    ...(docker.setupCommand.value !== undefined ? { setupCommand: docker.setupCommand.value } : {}),
  };
  return { ok: true, value: { ...base, sessionKey, configHash: sandboxConfigHash(base) } };
}
