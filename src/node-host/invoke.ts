// One `node.invoke.request` handled on the node: the command must be one this node declared (nothing
// else runs), its params parsed from `paramsJSON`, then system.run / system.which / file.read /
// file.write. Every failure is a `{code, message}` value for `node.invoke.result`.
import { fileRead, fileWrite, type NodeCommandOutcome } from "./file-commands.js";
import {
  authorizeRun,
  type NodeExecPolicy,
  runCommand,
  type SystemRunParams,
} from "./system-run.js";
import { whichExecutable } from "./which.js";

/** What the node host was started with: its exec policy (allow list, roots, env). */
export type NodeHostPolicy = NodeExecPolicy;

/** The commands a node with this policy declares (system.run needs `--allow`, files need roots). */
export function declaredCommands(policy: NodeHostPolicy): string[] {
  return [
    ...(policy.allow.length > 0 ? ["system.run"] : []),
    "system.which",
    ...(policy.roots.length > 0 ? ["file.read", "file.write"] : []),
  ];
}

/** The request as the gateway sends it (OpenClaw's NodeInvokeRequestEvent). */
export interface NodeInvokeRequest {
  id: string;
  nodeId: string;
  command: string;
  paramsJSON?: string;
  timeoutMs?: number;
}

const fail = (code: string, message: string): NodeCommandOutcome => ({
  ok: false,
  error: { code, message },
});

function paramsOf(request: NodeInvokeRequest): Record<string, unknown> | undefined {
  if (request.paramsJSON === undefined) return {};
  try {
    const value = JSON.parse(request.paramsJSON) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    // Unparsable params are the caller's error: answered INVALID_REQUEST below.
    return undefined;
  }
}

function runParamsOf(params: Record<string, unknown>): SystemRunParams | undefined {
  const { command, cwd, env, timeoutMs } = params;
  if (
    !Array.isArray(command) ||
    command.length === 0 ||
    !command.every((a) => typeof a === "string")
  ) {
    return undefined;
  }
  if (cwd !== undefined && cwd !== null && typeof cwd !== "string") return undefined;
  if (env !== undefined && (typeof env !== "object" || env === null)) return undefined;
  return {
    command: command as string[],
    ...(typeof cwd === "string" && cwd !== "" ? { cwd } : {}),
    ...(env ? { env: env as Record<string, string> } : {}),
    ...(typeof timeoutMs === "number" && timeoutMs > 0 ? { timeoutMs } : {}),
  };
}

/** Runs one request under the node's policy; `signal` (the host stopping) kills a running command. */
export async function handleInvoke(params: {
  policy: NodeHostPolicy;
  request: NodeInvokeRequest;
  signal?: AbortSignal;
}): Promise<NodeCommandOutcome> {
  const { policy, request, signal } = params;
  if (!declaredCommands(policy).includes(request.command)) {
    return fail("PERMISSION_DENIED", `${request.command} is not a command this node exposes`);
  }
  const args = paramsOf(request);
  if (!args) return fail("INVALID_REQUEST", "paramsJSON must be a JSON object");
  switch (request.command) {
    case "system.run": {
      const run = runParamsOf(args);
      if (!run)
        return fail("INVALID_REQUEST", "system.run needs command: a non-empty array of strings");
      const verdict = await authorizeRun(policy, run);
      if (!verdict.ok) return verdict;
      return {
        ok: true,
        payload: await runCommand({
          executable: verdict.executable,
          run,
          policy,
          ...(signal ? { signal } : {}),
        }),
      };
    }
    case "system.which": {
      const bins = Array.isArray(args.bins) ? args.bins.filter((b) => typeof b === "string") : [];
      if (bins.length === 0)
        return fail("INVALID_REQUEST", "system.which needs bins: an array of names");
      const found: Record<string, string> = {};
      for (const bin of bins as string[]) {
        const path = await whichExecutable(bin, policy.env.PATH);
        if (path) found[bin] = path;
      }
      return { ok: true, payload: { bins: found } };
    }
    case "file.read":
      return fileRead(policy.roots, args);
    case "file.write":
      return fileWrite(policy.roots, args);
    default:
      return fail("PERMISSION_DENIED", `${request.command} is not a command this node exposes`);
  }
}
