// The contract between the sandbox core (resolution, tool routing, CLI) and a sandbox backend (Docker,
// bubblewrap). The core resolves config into a SandboxSpec; a backend turns a spec into a running
// sandbox and says how to run one shell command inside it. Every operation returns a value, never throws.
import type { Logger } from "../../lib/logger.js";

/** The backends Pincer knows (`sandbox.backend`); "docker" is the default, like OpenClaw. */
export type SandboxBackendId = "docker" | "bwrap";

/** OpenClaw's `sandbox.scope`: one sandbox per session, per agent, or one for all agents. */
export type SandboxScope = "session" | "agent" | "shared";

/** OpenClaw's `sandbox.workspaceAccess`: what is mounted at /workspace. */
export type WorkspaceAccess = "none" | "ro" | "rw";

/** The path inside every sandbox where {@link SandboxSpec.workspaceDir} is mounted. */
export const SANDBOX_WORKDIR = "/workspace";

/** An operation's outcome: the value, or an error message written for a user or the model. */
export type SandboxResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** One extra bind mount (from `docker.binds` "host:container[:ro|rw]"), already parsed. */
export interface SandboxBind {
  hostPath: string;
  containerPath: string;
  readOnly: boolean;
}

/** Fully resolved settings of one sandbox: everything a backend needs, nothing it must look up. */
export interface SandboxSpec {
  backend: SandboxBackendId;
  agentId: string;
  /** The session the tool call runs for (the sandbox may be shared wider, see `scope`). */
  sessionKey: string;
  scope: SandboxScope;
  /** Identifies the sandbox instance: `session:<key>`, `agent:<id>` or `shared`; stable, not a file name. */
  scopeKey: string;
  workspaceAccess: WorkspaceAccess;
  /** Host dir mounted at /workspace: the agent workspace (ro/rw) or a sandbox workspace (none). */
  workspaceDir: string;
  /** `sandbox.workspaceRoot` (absolute): sandbox workspaces live here; bwrap also keeps instances here. */
  workspaceRoot: string;
  binds: SandboxBind[];
  /** Docker network name; "none" (the default) means no network. bwrap supports only "none". */
  network: string;
  env: Record<string, string>;
  /** Container user ("uid:gid" or a name); undefined: the backend's default. */
  user?: string;
  readOnlyRoot: boolean;
  /** Memory limit as Docker takes it ("512m", bytes as a number). */
  memory?: string | number;
  cpus?: number;
  pidsLimit?: number;
  /** Capabilities dropped (Docker's `--cap-drop`; default ["ALL"]). */
  capDrop: string[];
  /** Container image (Docker); recorded but unused by bwrap. */
  image: string;
  /** Run once, inside the sandbox, right after it is created (never again while the hash holds). */
  setupCommand?: string;
  /** Hash of every field above that shapes the sandbox; a change means recreate. */
  configHash: string;
}

/** Inputs of {@link SandboxHandle.command}. */
export interface SandboxCommandParams {
  /** Shell command line, run with `/bin/sh -c` inside the sandbox. */
  command: string;
  /** Working directory inside the sandbox (/workspace or below). */
  workdir: string;
  /** Extra environment for this command (on top of {@link SandboxSpec.env}). */
  env?: Record<string, string>;
}

/** How to run one command inside a sandbox from the host: what to spawn and how to stop it. */
export interface SandboxCommand {
  /** Host program and arguments, e.g. ["docker", "exec", ...] or ["bwrap", ...]. */
  argv: string[];
  /** Environment of the host process spawned (not the sandbox's: that is in argv or the spec). */
  env: NodeJS.ProcessEnv;
  /** Host cwd for the spawned client (any existing dir; the command's cwd is `workdir` inside). */
  cwd: string;
  /**
   * Stops the command inside the sandbox with `signal`, when killing the host process group is not
   * enough (Docker: the `docker exec` client's death leaves the process running in the container).
   * Absent when the host process group holds the whole command (bwrap). Never throws.
   */
  stop?: (signal: NodeJS.Signals) => Promise<void>;
}

/** A ready sandbox (created or reused by {@link SandboxBackend.ensure}). */
export interface SandboxHandle {
  /** Backend-specific id: container name (Docker), instance dir name (bwrap). */
  id: string;
  spec: SandboxSpec;
  /** True when this ensure() created it (and ran setupCommand); false when reused. */
  created: boolean;
  /** The host command that runs `params.command` inside this sandbox. */
  command(params: SandboxCommandParams): SandboxCommand;
}

/** One existing sandbox as `list()` reports it, from the labels/marker the backend stored. */
export interface SandboxInstance {
  backend: SandboxBackendId;
  /** Same id as {@link SandboxHandle.id}; what `remove()` takes. */
  id: string;
  agentId: string;
  /** The session that created it (for scope "session" the one it serves). */
  sessionKey?: string;
  scope: SandboxScope;
  scopeKey: string;
  configHash: string;
  image?: string;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms of the last ensure() (prune's idle clock). */
  lastUsedAt: number;
  /** Docker: whether the container is running; bwrap: always false (it runs per command, no daemon). */
  running: boolean;
}

/** Inputs of {@link SandboxBackend.list}: where to look (bwrap keeps instances under workspace roots). */
export interface SandboxListQuery {
  /** Every configured `sandbox.workspaceRoot` (absolute, deduplicated). Docker ignores it. */
  workspaceRoots: string[];
}

/** Whether a backend can run here; `reason` is a complete sentence ("bwrap not found: ..."). */
export type SandboxAvailability = { ok: true; version?: string } | { ok: false; reason: string };

/** A sandbox implementation. Stateless apart from what it keeps on disk or in the daemon. */
export interface SandboxBackend {
  readonly id: SandboxBackendId;
  /** Checks the backend can run (binary present, daemon up, kernel allows namespaces). */
  available(): Promise<SandboxAvailability>;
  /**
   * Creates or reuses the sandbox of `spec.scopeKey`: reuses one whose config hash matches (touching
   * its last-used time), recreates one whose hash differs, runs `setupCommand` once on creation (a
   * failing setupCommand is an error and leaves no half-made sandbox behind).
   */
  ensure(spec: SandboxSpec): Promise<SandboxResult<SandboxHandle>>;
  /** Every sandbox this backend holds for Pincer. */
  list(query: SandboxListQuery): Promise<SandboxResult<SandboxInstance[]>>;
  /** Removes one sandbox (stopping what runs in it); removing a missing one is ok. */
  remove(instance: SandboxInstance): Promise<SandboxResult<void>>;
}

/** What a backend factory gets: a logger and the process environment to find binaries with. */
export interface SandboxBackendContext {
  logger?: Logger;
  env: NodeJS.ProcessEnv;
}

/** Builds a backend; the registry maps each {@link SandboxBackendId} to one of these. */
export type SandboxBackendFactory = (ctx: SandboxBackendContext) => SandboxBackend;
