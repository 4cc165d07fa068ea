// The bubblewrap backend: no daemon; each command is its own `bwrap` process over the instance's
// dirs (instances.ts), with the namespaces and mounts of args.ts. An instance is created (and its
// setupCommand run) the first time its scope needs it, and recreated when the config hash changes.
import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdir } from "node:fs/promises";
import { basename, delimiter, dirname, isAbsolute, join } from "node:path";
import { errorMessage } from "../../tools/types.js";
import type {
  SandboxAvailability,
  SandboxBackend,
  SandboxBackendContext,
  SandboxHandle,
  SandboxResult,
  SandboxSpec,
} from "../backend.js";
import { SANDBOX_WORKDIR } from "../backend.js";
import { bwrapArgv, hostSystemMounts, type InstanceDirs, memoryBytes } from "./args.js";
import {
  BWRAP_INSTANCES_DIR,
  commitInstance,
  instancePaths,
  listInstances,
  prepareInstance,
  readMarker,
  removeInstanceDir,
  touchInstance,
} from "./instances.js";

/** Environment variable naming the bwrap binary (default: `bwrap` on PATH). */
export const BWRAP_ENV = "PINCER_BWRAP";
/** Longest a setupCommand may run before the instance is given up. */
const SETUP_TIMEOUT_MS = 10 * 60_000;
const OUTPUT_TAIL = 2000;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    // Not there or not executable: the caller reports what it looked for.
    return false;
  }
}

/** `name` on PATH (or the path itself when it has a slash), if executable. */
function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  if (name.includes("/")) return isExecutable(name) ? name : undefined;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir && isAbsolute(dir) && isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

function locateBwrap(env: NodeJS.ProcessEnv): SandboxResult<string> {
  const wanted = env[BWRAP_ENV]?.trim() || "bwrap";
  const found = findOnPath(wanted, env);
  if (found) return { ok: true, value: found };
  const where = wanted.includes("/") ? `${wanted} (${BWRAP_ENV})` : "on PATH";
  return {
    ok: false,
    error: `bwrap not found: no executable bubblewrap ${where}; install it (Debian: apt-get install bubblewrap) or use sandbox.backend "docker".`,
  };
}

function run(argv: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const [file, ...args] = argv;
    execFile(
      file ?? "false",
      args,
      { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, env: {} },
      (err, stdout, stderr) => {
        const output = `${stdout}${stderr}`.trim();
        if (!err) return done({ code: 0, output });
        const code = typeof err.code === "number" ? err.code : null;
        done({ code, output: output || errorMessage(err) });
      },
    );
  });
}

/** Checks a spec against what bwrap can honour; errors name the key. */
function checkSpec(spec: SandboxSpec, prlimit: string | undefined): string | undefined {
  if (spec.network !== "none")
    return `sandbox.docker.network is "${spec.network}": the bwrap backend has no network (only "none"); use sandbox.backend "docker" for networking.`;
  if (spec.user !== undefined && !/^\d+(:\d+)?$/.test(spec.user))
    return `sandbox.docker.user is "${spec.user}": the bwrap backend takes a numeric "uid" or "uid:gid".`;
  if (spec.memory !== undefined && memoryBytes(spec.memory) === undefined)
    return `sandbox.docker.memory "${spec.memory}" is not a size like "512m" or "1g".`;
  if ((spec.memory !== undefined || spec.pidsLimit !== undefined) && !prlimit)
    return "prlimit not found: sandbox.docker.memory and pidsLimit need it with the bwrap backend (Debian: util-linux).";
  return undefined;
}

/** Creates the bubblewrap backend. */
export function createBwrapBackend(ctx: SandboxBackendContext): SandboxBackend {
  const env = ctx.env;
  const handleFor = (params: {
    bwrap: string;
    prlimit: string | undefined;
    spec: SandboxSpec;
    dirs: InstanceDirs;
    id: string;
    created: boolean;
  }): SandboxHandle => {
    const system = hostSystemMounts();
    return {
      id: params.id,
      spec: params.spec,
      created: params.created,
      command: (cmd) => ({
        argv: bwrapArgv({ ...params, system, run: cmd }),
        env: { PATH: env.PATH ?? "/usr/bin:/bin" },
        cwd: "/",
      }),
    };
  };

  async function create(params: {
    bwrap: string;
    prlimit: string | undefined;
    spec: SandboxSpec;
    dir: string;
    now: number;
  }): Promise<SandboxResult<SandboxHandle>> {
    const { spec, dir } = params;
    await mkdir(spec.workspaceDir, { recursive: true });
    const dirs = await prepareInstance(dir);
    const handle = handleFor({ ...params, dirs, id: dir, created: true });
    if (spec.setupCommand) {
      const argv = bwrapArgv({
        ...params,
        dirs,
        system: hostSystemMounts(),
        run: { command: spec.setupCommand, workdir: SANDBOX_WORKDIR },
        shellFlags: "-lc",
      });
      const result = await run(argv, SETUP_TIMEOUT_MS);
      if (result.code !== 0) {
        await removeInstanceDir(dir);
        const tail = result.output.slice(-OUTPUT_TAIL);
        return {
          ok: false,
          error: `sandbox.docker.setupCommand failed in the new bwrap sandbox (exit ${result.code ?? "signal/timeout"}): ${tail || "(no output)"}`,
        };
      }
    }
    await commitInstance(dir, {
      version: 1,
      agentId: spec.agentId,
      sessionKey: spec.sessionKey,
      scope: spec.scope,
      scopeKey: spec.scopeKey,
      configHash: spec.configHash,
      createdAt: params.now,
    });
    return { ok: true, value: handle };
  }

  return {
    id: "bwrap",
    async available(): Promise<SandboxAvailability> {
      const bwrap = locateBwrap(env);
      if (!bwrap.ok) return { ok: false, reason: bwrap.error };
      const probe = await run(
        [bwrap.value, "--unshare-all", "--ro-bind", "/", "/", "true"],
        10_000,
      );
      if (probe.code !== 0)
        return {
          ok: false,
          reason: `bwrap cannot create its namespaces here (${bwrap.value}): ${probe.output || "no output"}`,
        };
      const version = await run([bwrap.value, "--version"], 10_000);
      return { ok: true, version: version.output };
    },
    async ensure(spec) {
      const bwrap = locateBwrap(env);
      if (!bwrap.ok) return bwrap;
      const prlimit = findOnPath("prlimit", env);
      const invalid = checkSpec(spec, prlimit);
      if (invalid) return { ok: false, error: invalid };
      if (spec.cpus !== undefined)
        ctx.logger?.warn(
          `sandbox: docker.cpus is not enforced by the bwrap backend (${spec.scopeKey})`,
        );
      const { dir, dirs } = instancePaths(spec);
      const now = Date.now();
      try {
        const existing = await readMarker(dir);
        if (existing?.marker.configHash === spec.configHash) {
          await touchInstance(dir, now);
          return {
            ok: true,
            value: handleFor({ bwrap: bwrap.value, prlimit, spec, dirs, id: dir, created: false }),
          };
        }
        if (existing) ctx.logger?.info(`sandbox: config of ${spec.scopeKey} changed; recreating`);
        await removeInstanceDir(dir);
        return await create({ bwrap: bwrap.value, prlimit, spec, dir, now });
      } catch (err) {
        return {
          ok: false,
          error: `bwrap sandbox ${dir} could not be prepared: ${errorMessage(err)}`,
        };
      }
    },
    async list(query) {
      try {
        return { ok: true, value: await listInstances(query.workspaceRoots) };
      } catch (err) {
        return { ok: false, error: `bwrap sandboxes could not be listed: ${errorMessage(err)}` };
      }
    },
    async remove(instance) {
      if (basename(dirname(instance.id)) !== BWRAP_INSTANCES_DIR)
        return { ok: false, error: `${instance.id} is not a bwrap sandbox instance dir.` };
      try {
        await removeInstanceDir(instance.id);
        return { ok: true, value: undefined };
      } catch (err) {
        return {
          ok: false,
          error: `bwrap sandbox ${instance.id} could not be removed: ${errorMessage(err)}`,
        };
      }
    },
  };
}
