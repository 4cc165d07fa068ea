// Sandboxed `exec`: what one command costs when it runs inside a sandbox, per backend. Each row
// skips (saying why) when its backend cannot run here. Runs against the built package (dist/).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { medianMs } from "./measure.mjs";

/** Every sandbox row. */
export async function sandboxRows() {
  return [...(await dockerSandboxRows())];
}

/**
 * "sandboxed exec (docker)": one `exec` round trip (`docker exec` of `true` in a warm container, as
 * the exec tool spawns it) and the cost of creating the container once. Needs a running Docker and
 * an image: the newest sandbox test image (built by the sandbox tests) or `openclaw-sandbox:
 * bookworm-slim` (`pincer sandbox setup`); otherwise the row says why it was skipped.
 */
async function dockerSandboxRows() {
  const name = "sandboxed exec (docker)";
  const { createDockerBackend } = await import("../dist/runtime/sandbox/docker/backend.js");
  const env = process.env;
  const available = await createDockerBackend({ env }).available();
  if (!available.ok) return [{ name, result: `skipped: ${available.reason}` }];
  const image = dockerBenchImage();
  if (!image) {
    return [{ name, result: "skipped: no image (run the sandbox tests or pincer sandbox setup)" }];
  }
  const root = mkdtempSync(join(tmpdir(), "pincer-bench-docker-"));
  const workspaceRoot = join(root, "state", "sandboxes");
  const workspaceDir = join(workspaceRoot, "bench");
  mkdirSync(workspaceDir, { recursive: true });
  const spec = {
    backend: "docker",
    agentId: "bench",
    sessionKey: "agent:bench:main",
    scope: "agent",
    scopeKey: "agent:bench",
    workspaceAccess: "none",
    workspaceDir,
    workspaceRoot,
    binds: [],
    network: "none",
    env: {},
    readOnlyRoot: true,
    capDrop: ["ALL"],
    image,
    configHash: "bench",
  };
  const benchEnv = { ...env, OPENCLAW_STATE_DIR: join(root, "state") };
  const sandboxes = createDockerBackend({ env: benchEnv });
  try {
    const start = performance.now();
    const ensured = await sandboxes.ensure(spec);
    const createMs = performance.now() - start;
    if (!ensured.ok) return [{ name, result: `failed: ${ensured.error}` }];
    const handle = ensured.value;
    const reuseMs = await medianMs(async () => {
      const reused = await sandboxes.ensure(spec);
      if (!reused.ok) throw new Error(reused.error);
    }, 9);
    const execMs = await medianMs(async () => {
      const command = handle.command({ command: "true", workdir: "/workspace" });
      const [program, ...args] = command.argv;
      const run = spawnSync(program, args, { env: command.env, cwd: command.cwd });
      if (run.status !== 0) throw new Error(`docker exec failed: ${run.stderr}`);
    }, 15);
    return [
      {
        name,
        result: `${execMs.toFixed(0)} ms per exec (docker exec in a warm container); a run's ensure (reuse) ${reuseMs.toFixed(0)} ms; creating the container ${createMs.toFixed(0)} ms`,
      },
    ];
  } finally {
    const listed = await sandboxes.list({ workspaceRoots: [workspaceRoot] });
    for (const instance of listed.ok ? listed.value : []) await sandboxes.remove(instance);
    rmSync(root, { recursive: true, force: true });
  }
}

/** The image the docker row runs: the newest sandbox test image, else the default image. */
function dockerBenchImage() {
  for (const repo of ["pincer-sandbox-test", "openclaw-sandbox:bookworm-slim"]) {
    const listed = spawnSync(
      "docker",
      ["image", "ls", repo, "--format", "{{.Repository}}:{{.Tag}}"],
      {
        encoding: "utf8",
      },
    );
    const first = listed.stdout?.split("\n").find(Boolean);
    if (first) return first;
  }
  return undefined;
}
