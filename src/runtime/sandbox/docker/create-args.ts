// The `docker create` command line of a sandbox container, from a resolved spec: no network unless
// configured, all capabilities dropped by default, no-new-privileges, a read-only root with a
// private tmpfs /tmp, the resource limits, the labels, and a long-lived `sleep infinity` under
// Docker's init so `docker exec` has somewhere to run and orphans are reaped.
import type { SandboxResult, SandboxSpec } from "../backend.js";
import { SANDBOX_WORKDIR } from "../backend.js";
import { containerLabels } from "./labels.js";
import { type ContainerMount, mountArg } from "./mounts.js";

/** Writable scratch dirs of a read-only root (OpenClaw mounts the same three). */
const READ_ONLY_ROOT_TMPFS = ["/tmp", "/var/tmp", "/run"];
/** An environment variable name Docker's `--env` takes unambiguously. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Inputs of {@link createArgs}. */
export interface CreateArgsParams {
  spec: SandboxSpec;
  name: string;
  mounts: ContainerMount[];
  createdAt: number;
}

/** The arguments after `docker` that create the container, or why the spec cannot be used. */
export function createArgs(params: CreateArgsParams): SandboxResult<string[]> {
  const { spec } = params;
  const args = ["create", "--name", params.name, "--init", "--workdir", SANDBOX_WORKDIR];
  for (const [key, value] of Object.entries(containerLabels(spec, params.createdAt))) {
    args.push("--label", `${key}=${value}`);
  }
  args.push("--network", spec.network || "none");
  args.push("--security-opt", "no-new-privileges");
  for (const cap of spec.capDrop) args.push("--cap-drop", cap);
  if (spec.readOnlyRoot) {
    args.push("--read-only");
    for (const dir of READ_ONLY_ROOT_TMPFS) args.push("--tmpfs", dir);
  }
  if (spec.user) args.push("--user", spec.user);
  if (spec.memory !== undefined) args.push("--memory", String(spec.memory));
  if (spec.cpus !== undefined) args.push("--cpus", String(spec.cpus));
  if (spec.pidsLimit !== undefined) args.push("--pids-limit", String(spec.pidsLimit));
  for (const [key, value] of Object.entries(spec.env)) {
    if (!ENV_NAME.test(key)) {
      return { ok: false, error: `sandbox.docker.env: "${key}" is not a valid variable name.` };
    }
    args.push("--env", `${key}=${value}`);
  }
  for (const mount of params.mounts) args.push("--mount", mountArg(mount));
  if (!spec.image) return { ok: false, error: "sandbox.docker.image is empty." };
  args.push(spec.image, "sleep", "infinity");
  return { ok: true, value: args };
}
