// Sandboxed exec: one `exec` tool call round trip (`echo hi`) through the real toolset, inside a
// sandbox that already exists (created by a warm-up call), against the same call on the host. One
// row per backend in BACKENDS; a backend that cannot run here gets a "skipped" row saying why.
// Docker needs an image: the newest sandbox test image (the sandbox tests build it offline), else
// `openclaw-sandbox:bookworm-slim` (`pincer sandbox setup`); its containers are removed afterwards.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../dist/config/index.js";
import { createSandboxBackend, defaultSandboxBackends } from "../dist/runtime/sandbox/registry.js";
import { buildToolset, invokeTool, ProcessRegistry } from "../dist/runtime/tools/index.js";
import { medianMs } from "./measure.mjs";

/** The backends measured, in row order (each backend adds itself here). */
const BACKENDS = ["bwrap", "docker"];
const RUNS = 15;

const host = {
  status: () => ({ agentId: "main", sessionKey: "agent:main:main", usage: {} }),
  list: () => [],
  history: () => [],
  send: async () => ({ status: "accepted" }),
  spawn: async () => ({ status: "accepted", childSessionKey: "agent:main:subagent:x" }),
};

/** The median ms of one `exec` call for `sandbox` config (undefined: on the host). */
async function execMs(home, sandbox) {
  const paths = {
    home,
    stateDir: join(home, ".openclaw"),
    configPath: join(home, "c.json"),
    workspaceBase: home,
  };
  const config = { agents: { list: [{ id: "main", ...(sandbox ? { sandbox } : {}) }] } };
  const workspaceDir = join(home, "workspace");
  mkdirSync(workspaceDir, { recursive: true });
  const jobs = new ProcessRegistry();
  const tools = buildToolset({
    cfg: resolveConfig({ config, paths }),
    agentId: "main",
    sessionKey: "agent:main:main",
    workspaceDir,
    host,
    jobs,
    signal: new AbortController().signal,
  });
  const exec = tools.find((tool) => tool.name === "exec");
  const call = async () => {
    const outcome = await invokeTool({ tool: exec, args: { command: "echo hi" } });
    if (outcome.isError) throw new Error(JSON.stringify(outcome.content));
  };
  await call(); // creates the sandbox (and warms the toolset)
  const ms = await medianMs(call, RUNS);
  await jobs.stopAll();
  return ms;
}

/** Rows "sandboxed exec (<backend>)": median per call, and the host call for comparison. */
export async function sandboxRows() {
  const rows = [];
  const home = mkdtempSync(join(tmpdir(), "pincer-bench-sandbox-"));
  try {
    const onHost = await execMs(join(home, "host"));
    for (const id of BACKENDS) {
      const name = `sandboxed exec (${id})`;
      const backend = createSandboxBackend({
        registry: defaultSandboxBackends(),
        id,
        ctx: { env: process.env },
      });
      const available = backend.ok
        ? await backend.value.available()
        : { ok: false, reason: backend.error };
      if (!available.ok) {
        rows.push({ name, result: `skipped: ${available.reason}` });
        continue;
      }
      const extra = id === "docker" ? dockerSettings() : {};
      if (!extra) {
        rows.push({
          name,
          result: "skipped: no image (run the sandbox tests or pincer sandbox setup)",
        });
        continue;
      }
      const sandbox = { mode: "all", backend: id, workspaceAccess: "rw", ...extra };
      const ms = await execMs(join(home, id), sandbox).finally(() =>
        removeSandboxes(backend.value, join(home, id, ".openclaw", "sandboxes")),
      );
      rows.push({
        name,
        result: `${ms.toFixed(1)} ms per call (host ${onHost.toFixed(1)} ms; median of ${RUNS}, sandbox reused)`,
      });
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}

/** The docker row's settings: an image that is there, or undefined when there is none. */
function dockerSettings() {
  for (const repo of ["pincer-sandbox-test", "openclaw-sandbox:bookworm-slim"]) {
    const listed = spawnSync(
      "docker",
      ["image", "ls", repo, "--format", "{{.Repository}}:{{.Tag}}"],
      { encoding: "utf8" },
    );
    const image = listed.stdout?.split("\n").find(Boolean);
    if (image) return { docker: { image } };
  }
  return undefined;
}

/** Removes the sandboxes a row made under `workspaceRoot` (Docker's containers outlive the dir). */
async function removeSandboxes(backend, workspaceRoot) {
  const listed = await backend.list({ workspaceRoots: [workspaceRoot] });
  for (const instance of listed.ok ? listed.value : []) await backend.remove(instance);
}
