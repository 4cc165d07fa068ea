// The bwrap command line of one sandboxed command: new user/pid/ipc/uts/net/cgroup namespaces, a
// read-only view of the host's system dirs, the instance's own /etc, HOME and /tmp, /workspace per
// access mode, the extra binds, a clean environment, and prlimit in front for the resource limits.
import { lstatSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { errnoCode } from "../../tools/types.js";
import type { SandboxCommandParams, SandboxSpec } from "../backend.js";
import { SANDBOX_WORKDIR } from "../backend.js";

/** HOME inside a bwrap sandbox (the instance's `home/`). */
export const BWRAP_HOME = "/home/sandbox";
/** Hostname inside every bwrap sandbox (its own UTS namespace). */
export const BWRAP_HOSTNAME = "pincer-sandbox";
const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** Host dirs shown read-only; a symlink (merged /usr) is recreated as the same symlink. */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/** The /etc files a shell and common tools need; passwd/group come from the instance. */
const ETC_FILES = [
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "alternatives",
  "nsswitch.conf",
  "localtime",
  "ssl",
  "ca-certificates",
  "ca-certificates.conf",
  "mime.types",
  "os-release",
];

/** How the host's system dirs are recreated inside (computed once per ensure, from lstat). */
export type SystemMount =
  | { kind: "bind"; path: string }
  | { kind: "symlink"; path: string; target: string };

/** The host's system dirs and /etc entries as bwrap arguments; missing ones are skipped. */
export function hostSystemMounts(): SystemMount[] {
  const mounts: SystemMount[] = [];
  for (const path of [...SYSTEM_DIRS, ...ETC_FILES.map((name) => join("/etc", name))]) {
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) mounts.push({ kind: "symlink", path, target: readlinkSync(path) });
      else mounts.push({ kind: "bind", path });
    } catch (err) {
      // Absent on this host (e.g. no /lib32): nothing to show; anything else is a real failure.
      if (errnoCode(err) !== "ENOENT") throw err;
    }
  }
  return mounts;
}

/** Where an instance keeps its own files (see instances.ts). */
export interface InstanceDirs {
  home: string;
  tmp: string;
  /** passwd and group written for the sandbox. */
  etc: string;
}

/** Inputs of {@link bwrapArgv}. */
export interface BwrapArgvParams {
  bwrap: string;
  /** prlimit binary, needed when the spec sets memory or pidsLimit. */
  prlimit?: string;
  spec: SandboxSpec;
  dirs: InstanceDirs;
  system: SystemMount[];
  run: SandboxCommandParams;
  /** Shell flags: "-c" for commands, "-lc" for setupCommand (OpenClaw runs it with `sh -lc`). */
  shellFlags?: string;
}

function userArgs(user: string | undefined): string[] {
  if (user === undefined) return [];
  const [uid, gid] = user.split(":");
  return ["--unshare-user", "--uid", uid ?? "0", "--gid", gid ?? uid ?? "0"];
}

function limitArgs(params: BwrapArgvParams): string[] {
  const { spec, prlimit } = params;
  const limits: string[] = [];
  const bytes = memoryBytes(spec.memory);
  if (bytes !== undefined) limits.push(`--as=${bytes}`);
  if (spec.pidsLimit !== undefined) limits.push(`--nproc=${spec.pidsLimit}`);
  return limits.length > 0 && prlimit ? [prlimit, ...limits, "--"] : [];
}

/** Docker's memory notation ("512m", "1g", bytes) in bytes; undefined when unset or unreadable. */
export function memoryBytes(memory: string | number | undefined): number | undefined {
  if (memory === undefined) return undefined;
  if (typeof memory === "number") return memory > 0 ? Math.floor(memory) : undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([bkmg]?)b?$/i.exec(memory.trim());
  if (!match) return undefined;
  const unit = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[
    (match[2] ?? "").toLowerCase() as "" | "b" | "k" | "m" | "g"
  ];
  return Math.floor(Number(match[1]) * unit);
}

/** Docker's capability spelling ("NET_RAW", "ALL") as bwrap takes it ("CAP_NET_RAW", "ALL"). */
export function bwrapCapName(cap: string): string {
  const upper = cap.trim().toUpperCase();
  return upper === "ALL" || upper.startsWith("CAP_") ? upper : `CAP_${upper}`;
}

/** The full host argv (prlimit, bwrap and its options, then `/bin/sh -c command`). */
export function bwrapArgv(params: BwrapArgvParams): string[] {
  const { spec, dirs, run } = params;
  const argv = [...limitArgs(params), params.bwrap, "--die-with-parent", "--unshare-all"];
  argv.push(...userArgs(spec.user), "--hostname", BWRAP_HOSTNAME);
  for (const mount of params.system) {
    if (mount.kind === "symlink") argv.push("--symlink", mount.target, mount.path);
    else argv.push("--ro-bind", mount.path, mount.path);
  }
  argv.push("--ro-bind", join(dirs.etc, "passwd"), "/etc/passwd");
  argv.push("--ro-bind", join(dirs.etc, "group"), "/etc/group");
  argv.push("--proc", "/proc", "--dev", "/dev");
  argv.push("--bind", dirs.tmp, "/tmp", "--bind", dirs.home, BWRAP_HOME);
  const workspaceBind = spec.workspaceAccess === "ro" ? "--ro-bind" : "--bind";
  argv.push(workspaceBind, spec.workspaceDir, SANDBOX_WORKDIR);
  for (const bind of spec.binds) {
    argv.push(bind.readOnly ? "--ro-bind" : "--bind", bind.hostPath, bind.containerPath);
  }
  if (spec.readOnlyRoot) argv.push("--remount-ro", "/");
  for (const cap of spec.capDrop) argv.push("--cap-drop", bwrapCapName(cap));
  const env = { PATH: DEFAULT_PATH, HOME: BWRAP_HOME, ...spec.env, ...run.env };
  argv.push("--clearenv");
  for (const [key, value] of Object.entries(env)) argv.push("--setenv", key, value);
  argv.push("--chdir", run.workdir, "--", "/bin/sh", params.shellFlags ?? "-c", run.command);
  return argv;
}
