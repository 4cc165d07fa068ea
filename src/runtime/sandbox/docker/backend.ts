// The Docker sandbox backend: one long-lived container per scope, driven through the `docker` CLI.
// ensure() reuses the scope's container while its config-hash label matches, recreates it when the
// hash changed, runs setupCommand once after creating it, and fails with a clear value (Docker
// missing or stopped, image missing, a refused mount, a failing setupCommand): never a host fallback.
import { setTimeout as sleep } from "node:timers/promises";
import { resolveStatePaths } from "../../../config/paths.js";
import type {
  SandboxAvailability,
  SandboxBackend,
  SandboxBackendContext,
  SandboxHandle,
  SandboxInstance,
  SandboxListQuery,
  SandboxResult,
  SandboxSpec,
} from "../backend.js";
import { type DockerOutput, type DockerRun, runDocker } from "./cli.js";
import { createArgs } from "./create-args.js";
import { dockerExecCommand } from "./exec-command.js";
import {
  containerName,
  type InspectedContainer,
  instanceFromInspect,
  LABEL_CONFIG_HASH,
  LABEL_SANDBOX,
  LABEL_WORKSPACE_ROOT,
} from "./labels.js";
import { clearLastUsed, readLastUsed, touchLastUsed } from "./last-used.js";
import { checkedMounts, type ProtectedPaths } from "./mounts.js";

/** Options of {@link createDockerBackend} beyond the shared backend context. */
export interface DockerBackendOptions {
  /** Paths no mount may expose; default: the state dir and config file resolved from `ctx.env`. */
  protectedPaths?: ProtectedPaths;
  /** Clock (epoch ms) for labels and last-used records. */
  now?: () => number;
}

/** setupCommand may install packages: it gets ten minutes. */
const SETUP_TIMEOUT_MS = 600_000;
/** How often a run that lost the create race looks for the winner's container, and how long it waits. */
const TAKEN_RETRIES = 8;
const TAKEN_RETRY_MS = 50;
/** Characters of a failing setupCommand's output quoted in the error. */
const SETUP_OUTPUT_TAIL = 800;

/** Builds the Docker backend (the factory the sandbox registry maps "docker" to). */
export function createDockerBackend(
  ctx: SandboxBackendContext,
  options: DockerBackendOptions = {},
): SandboxBackend {
  const now = options.now ?? Date.now;
  const env = ctx.env;
  /** Ensures in flight per container name: two tool calls of one scope share one creation. */
  const inFlight = new Map<string, Promise<SandboxResult<SandboxHandle>>>();
  const docker = (args: string[], timeoutMs?: number) =>
    runDocker({ args, env, ...(timeoutMs ? { timeoutMs } : {}) });

  const handle = (spec: SandboxSpec, name: string, created: boolean): SandboxHandle => ({
    id: name,
    spec,
    created,
    command: (params) =>
      dockerExecCommand({
        container: name,
        command: params,
        hostEnv: env,
        hostCwd: spec.workspaceDir,
        ...(ctx.logger ? { logger: ctx.logger } : {}),
      }),
  });

  /** The container's inspect record; undefined when there is none; an error when Docker failed. */
  const inspect = async (name: string): Promise<SandboxResult<InspectedContainer | undefined>> => {
    const run = await docker(["inspect", "--type", "container", name]);
    if (run.ok) return { ok: true, value: parseInspect(run.output.stdout)[0] };
    if (run.output && /No such (container|object)/i.test(run.output.stderr)) {
      return { ok: true, value: undefined };
    }
    return { ok: false, error: run.error };
  };

  const removeContainer = async (name: string): Promise<SandboxResult<void>> => {
    const run = await docker(["rm", "-f", name]);
    if (run.ok || (run.output && /No such container/i.test(run.output.stderr))) {
      return { ok: true, value: undefined };
    }
    return { ok: false, error: run.error };
  };

  /** Creates and starts the container; "taken" when another process created it meanwhile. */
  const create = async (
    spec: SandboxSpec,
    name: string,
  ): Promise<SandboxResult<"created" | "taken">> => {
    const guard: SandboxResult<ProtectedPaths> = options.protectedPaths
      ? { ok: true, value: options.protectedPaths }
      : protectedPathsFrom(env);
    if (!guard.ok) return guard;
    const mounts = checkedMounts(spec, guard.value);
    if (!mounts.ok) return mounts;
    const image = await docker(["image", "inspect", "--format", "{{.Id}}", spec.image]);
    if (!image.ok) {
      if (!image.output || !/No such image/i.test(image.output.stderr)) return image;
      return { ok: false, error: missingImage(spec.image) };
    }
    const args = createArgs({ spec, name, mounts: mounts.value, createdAt: now() });
    if (!args.ok) return args;
    const created = await docker(args.value);
    if (
      !created.ok &&
      created.output &&
      /Conflict\. The container name/i.test(created.output.stderr)
    ) {
      return { ok: true, value: "taken" };
    }
    if (!created.ok)
      return { ok: false, error: `Sandbox container could not be created: ${created.error}` };
    const started = await docker(["start", name]);
    if (!started.ok) {
      await removeContainer(name);
      return { ok: false, error: `Sandbox container could not start: ${started.error}` };
    }
    if (spec.setupCommand) {
      const setup = await docker(
        ["exec", "-i", name, "/bin/sh", "-lc", spec.setupCommand],
        SETUP_TIMEOUT_MS,
      );
      if (!setup.ok) {
        await removeContainer(name);
        return { ok: false, error: setupFailure(setup.error, setup.output) };
      }
    }
    return { ok: true, value: "created" };
  };

  const ensureNow = async (
    spec: SandboxSpec,
    name: string,
    attempt = 1,
  ): Promise<SandboxResult<SandboxHandle>> => {
    const found = await inspect(name);
    if (!found.ok) return found;
    let created = false;
    const existing = found.value;
    if (existing && existing.Config?.Labels?.[LABEL_CONFIG_HASH] === spec.configHash) {
      if (existing.State?.Running !== true) {
        const started = await docker(["start", name]);
        if (!started.ok)
          return { ok: false, error: `Sandbox container could not start: ${started.error}` };
      }
    } else {
      if (existing) {
        ctx.logger?.info({ container: name }, "sandbox: config changed, recreating the container");
        const removed = await removeContainer(name);
        if (!removed.ok) return removed;
      }
      const made = await create(spec, name);
      if (!made.ok) return made;
      // Another gateway run of this scope won the race: use its container (inspected afresh).
      // Docker reserves the name before `inspect` sees the container, so look again a few times.
      if (made.value === "taken") {
        if (attempt < TAKEN_RETRIES) {
          await sleep(TAKEN_RETRY_MS * attempt);
          return ensureNow(spec, name, attempt + 1);
        }
        return {
          ok: false,
          error: `Sandbox container ${name} is being created by another run; try again.`,
        };
      }
      created = true;
    }
    const touched = await touchLastUsed({
      workspaceRoot: spec.workspaceRoot,
      container: name,
      at: now(),
    });
    if (touched) ctx.logger?.warn({ container: name }, `sandbox: ${touched}`);
    return { ok: true, value: handle(spec, name, created) };
  };

  return {
    id: "docker",
    available: () => dockerAvailability(env),
    ensure: (wanted) => {
      // One ensure at a time per container: a second tool call of the scope waits, then reuses.
      const name = containerName(wanted);
      const before = inFlight.get(name);
      const run = (before ?? Promise.resolve()).then(() => ensureNow(wanted, name));
      inFlight.set(name, run);
      return run.finally(() => {
        if (inFlight.get(name) === run) inFlight.delete(name);
      });
    },
    list: (query) => listContainers({ docker, query }),
    remove: async (instance) => {
      const found = await inspect(instance.id);
      if (!found.ok) return found;
      if (!found.value) return { ok: true, value: undefined };
      const removed = await removeContainer(instance.id);
      const root = found.value.Config?.Labels?.[LABEL_WORKSPACE_ROOT];
      if (removed.ok && root) await clearLastUsed(root, instance.id);
      return removed;
    },
  };
}

/** Whether Docker answers here, with the server version or a sentence saying why not. */
export async function dockerAvailability(env: NodeJS.ProcessEnv): Promise<SandboxAvailability> {
  const run = await runDocker({
    args: ["version", "--format", "{{.Server.Version}}"],
    env,
    timeoutMs: 15_000,
  });
  if (!run.ok) return { ok: false, reason: run.error };
  return { ok: true, version: run.output.stdout.trim() };
}

/** Every Pincer sandbox container (of the given workspace roots, when some are given). */
async function listContainers(params: {
  docker: (args: string[]) => Promise<DockerRun>;
  query: SandboxListQuery;
}): Promise<SandboxResult<SandboxInstance[]>> {
  const ids = await params.docker([
    "ps",
    "-aq",
    "--no-trunc",
    "--filter",
    `label=${LABEL_SANDBOX}=1`,
  ]);
  if (!ids.ok) return { ok: false, error: ids.error };
  const list = ids.output.stdout.split("\n").filter(Boolean);
  if (list.length === 0) return { ok: true, value: [] };
  const inspected = await params.docker(["inspect", "--type", "container", ...list]);
  // A container removed between ps and inspect makes inspect exit 1 but still print the others.
  const stdout = inspected.ok ? inspected.output.stdout : inspected.output?.stdout;
  if (stdout === undefined) return { ok: false, error: inspected.ok ? "" : inspected.error };
  const roots = new Set(params.query.workspaceRoots);
  const instances: SandboxInstance[] = [];
  for (const container of parseInspect(stdout)) {
    const root = container.Config?.Labels?.[LABEL_WORKSPACE_ROOT];
    if (roots.size > 0 && (!root || !roots.has(root))) continue;
    const name = container.Name?.replace(/^\//, "") ?? "";
    const lastUsed = root ? await readLastUsed(root, name) : undefined;
    const instance = instanceFromInspect(container, lastUsed);
    if (instance) instances.push(instance);
  }
  return { ok: true, value: instances };
}

/** `docker inspect`'s JSON array; an empty list for anything unparseable. */
function parseInspect(stdout: string): InspectedContainer[] {
  try {
    const parsed: unknown = JSON.parse(stdout || "[]");
    return Array.isArray(parsed) ? (parsed as InspectedContainer[]) : [];
  } catch {
    // Not JSON (a docker CLI that printed something else): nothing usable was listed.
    return [];
  }
}

/** The protected paths of this process's state dir, or why they cannot be resolved (fail closed). */
function protectedPathsFrom(env: NodeJS.ProcessEnv): SandboxResult<ProtectedPaths> {
  try {
    const paths = resolveStatePaths({ env });
    return { ok: true, value: { stateDir: paths.stateDir, configPath: paths.configPath } };
  } catch (err) {
    return {
      ok: false,
      error: `Sandbox refused: the state dir cannot be resolved (${(err as Error).message}).`,
    };
  }
}

/** The error for an image Docker does not have. */
function missingImage(image: string): string {
  return (
    `Docker image "${image}" is not present. Build it with \`pincer sandbox setup\` (needs a ` +
    "reachable image registry), load one offline (`docker load` / `docker import`), or set " +
    "sandbox.docker.image to an image you have."
  );
}

/** The error for a failing setupCommand: its exit and the tail of what it printed. */
function setupFailure(error: string, output: DockerOutput | undefined): string {
  const printed = `${output?.stdout ?? ""}${output?.stderr ?? ""}`.trim().slice(-SETUP_OUTPUT_TAIL);
  const exit = output ? ` (exit code ${output.code})` : "";
  return `sandbox.docker.setupCommand failed${exit}; the container was removed. ${printed || error}`;
}
