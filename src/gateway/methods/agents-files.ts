// agents.files.list / get / set: an agent's bootstrap files (the ones its prompt injects) read and
// replaced over the gateway, as OpenClaw's Control UI does. Only the known bootstrap names are
// accepted, always as a bare name inside the agent's workspace; a name whose file is a symlink
// leading outside the workspace is refused. A write replaces the file atomically (the bootstrap
// cache sees the new inode on the next turn) and keeps the old file's permissions.
import { lstat, readFile, realpath, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { CORE_BOOTSTRAP_FILES, MEMORY_FILE_NAMES } from "../../agents/bootstrap.js";
import { BOOTSTRAP_FILENAME } from "../../agents/workspace.js";
import type { ResolvedAgent } from "../../config/index.js";
import { writeFileAtomicAsync } from "../../lib/atomic-write.js";
import type { AgentsFileEntry } from "../../protocol/gateway/index.js";
import { type CallOf, defineMethod, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";
import { invalid, resolveTarget } from "./shared.js";

/** The file names these methods serve, in the order `agents.files.list` reports them. */
export const AGENT_FILE_NAMES: readonly string[] = [
  ...CORE_BOOTSTRAP_FILES,
  BOOTSTRAP_FILENAME,
  ...MEMORY_FILE_NAMES,
];
/** New files are private to the gateway's user (USER.md and MEMORY.md hold personal notes). */
const NEW_FILE_MODE = 0o600;

type Located = { agent: ResolvedAgent; path: string } | { error: ReturnType<typeof invalid> };

function errnoOf(err: unknown): string | undefined {
  return err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
}

/** The agent and the file's path, or INVALID_REQUEST naming the unknown agent or file name. */
function locate(
  deps: Pick<MethodDeps, "config">,
  params: { agentId: string; name?: string },
): Located {
  const cfg = deps.config();
  const target = resolveTarget(cfg, { agentId: params.agentId });
  if ("error" in target) return { error: target.error };
  const agent = cfg.agents.find((candidate) => candidate.id === target.agentId)!;
  const name = params.name ?? AGENT_FILE_NAMES[0]!;
  if (!AGENT_FILE_NAMES.includes(name)) {
    return {
      error: invalid(
        `invalid name: "${name}" is not a bootstrap file (one of ${AGENT_FILE_NAMES.join(", ")})`,
        { name },
      ),
    };
  }
  return { agent, path: join(agent.workspace, name) };
}

/** Refuses a file that is a symlink resolving outside the workspace (a missing file is fine). */
async function insideWorkspace(workspace: string, path: string): Promise<boolean> {
  try {
    if (!(await lstat(path)).isSymbolicLink()) return true;
    const [root, real] = await Promise.all([realpath(workspace), realpath(path)]);
    const rel = relative(root, real);
    return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep);
  } catch (err) {
    // Missing (ENOENT) is a file yet to be written; a dangling link has no real path: refused.
    return errnoOf(err) === "ENOENT" && !(await isLink(path));
  }
}

async function isLink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch (err) {
    if (errnoOf(err) === "ENOENT") return false;
    throw err;
  }
}

/** The entry for one file: size and mtime when present, `missing` when not; content on request. */
async function describe(
  path: string,
  name: string,
  withContent: boolean,
): Promise<AgentsFileEntry> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return { name, path, missing: true };
    const entry: AgentsFileEntry = {
      name,
      path,
      missing: false,
      size: info.size,
      updatedAtMs: Math.floor(info.mtimeMs),
    };
    if (withContent) entry.content = await readFile(path, "utf8");
    return entry;
  } catch (err) {
    if (errnoOf(err) === "ENOENT" || errnoOf(err) === "ENOTDIR")
      return { name, path, missing: true };
    throw err;
  }
}

function unsafe(name: string) {
  return invalid(`unsafe workspace file: ${name} is a link leading outside the workspace`, {
    name,
  });
}

async function list(call: CallOf<"agents.files.list">, deps: Pick<MethodDeps, "config">) {
  const located = locate(deps, { agentId: call.params.agentId });
  if ("error" in located) return located.error;
  const { agent } = located;
  const files = await Promise.all(
    AGENT_FILE_NAMES.map((name) => describe(join(agent.workspace, name), name, false)),
  );
  // memory.md is the lower-case alternative: listed only when it is the one that exists.
  const shown = files.filter((file) => file.name !== "memory.md" || !file.missing);
  return ok({ agentId: agent.id, workspace: agent.workspace, files: shown });
}

async function get(call: CallOf<"agents.files.get">, deps: Pick<MethodDeps, "config">) {
  const located = locate(deps, call.params);
  if ("error" in located) return located.error;
  const { agent, path } = located;
  if (!(await insideWorkspace(agent.workspace, path))) return unsafe(call.params.name);
  const file = await describe(path, call.params.name, true);
  return ok({ agentId: agent.id, workspace: agent.workspace, file });
}

async function set(call: CallOf<"agents.files.set">, deps: Pick<MethodDeps, "config" | "logger">) {
  const located = locate(deps, call.params);
  if ("error" in located) return located.error;
  const { agent, path } = located;
  if (!(await insideWorkspace(agent.workspace, path))) return unsafe(call.params.name);
  const before = await stat(path).catch((err: unknown) => {
    if (errnoOf(err) === "ENOENT") return undefined;
    throw err;
  });
  await writeFileAtomicAsync(path, call.params.content, {
    mode: before ? before.mode & 0o777 : NEW_FILE_MODE,
  });
  deps.logger.info(`agents.files.set: wrote ${path} (${call.params.content.length} chars)`);
  const file = await describe(path, call.params.name, true);
  return ok({ ok: true, agentId: agent.id, workspace: agent.workspace, file });
}

/** The bootstrap-file methods: reading needs operator.read, writing operator.admin (OpenClaw's). */
export const agentFileMethods = [
  defineMethod({
    name: "agents.files.list",
    scope: "operator.read",
    uses: ["config"],
    handler: list,
  }),
  defineMethod({
    name: "agents.files.get",
    scope: "operator.read",
    uses: ["config"],
    handler: get,
  }),
  defineMethod({
    name: "agents.files.set",
    scope: "operator.admin",
    uses: ["config", "logger"],
    handler: set,
  }),
];
