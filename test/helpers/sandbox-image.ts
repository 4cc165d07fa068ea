// A small Docker image for the sandbox tests, built offline: no registry is reachable from the test
// machines, so the host's own Debian binaries (sh, coreutils, hostname, setsid, ...) and the shared
// libraries `ldd` names are copied into a root filesystem and loaded with `docker import`. The tag
// carries a hash of the recipe (the file list and contents), so the image is built once and reused
// until the host's binaries change; older tags of the same recipe name are removed then.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Repository of the test image's tags. */
export const TEST_IMAGE_REPO = "pincer-sandbox-test";
/** Label on every image, container and volume the sandbox tests create (afterAll removes them). */
export const TEST_LABEL = "pincer.test";

/** Bump when the recipe below changes in a way the file hashes do not show. */
const RECIPE_VERSION = "1";
const BINARIES = [
  "sh",
  "cat",
  "ls",
  "mkdir",
  "echo",
  "sleep",
  "id",
  "hostname",
  "touch",
  "rm",
  "env",
  "pwd",
  "head",
  "tail",
  "wc",
  "readlink",
  "stat",
  "tr",
  "cut",
  "mv",
  "cp",
  "chmod",
  "ln",
  "true",
  "false",
  "test",
  "printf",
  "basename",
  "dirname",
  "uname",
  "whoami",
  "grep",
  "sed",
  "setsid",
  "kill",
  "ps",
  "nproc",
];
const PASSWD = "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n";
const GROUP = "root:x:0:\nnogroup:x:65534:\n";

/** What the Docker checks found: a working daemon, or why the tests cannot run. */
export interface DockerProbe {
  ok: boolean;
  /** Why Docker is unusable (when not ok). */
  reason?: string;
}

/** Asks the daemon for `docker info` (bounded): the sandbox tests run only when it answers. */
export function probeDocker(env: NodeJS.ProcessEnv = process.env): DockerProbe {
  const run = spawnSync("docker", ["info", "--format", "{{.ServerVersion}}"], {
    env,
    encoding: "utf8",
    timeout: 15_000,
  });
  if (run.error) return { ok: false, reason: `docker CLI: ${run.error.message}` };
  if (run.status !== 0) return { ok: false, reason: (run.stderr || run.stdout).trim() };
  return { ok: true };
}

/**
 * The notice printed when the Docker sandbox tests skip, else undefined. They skip only when Docker
 * is unusable and CI is not "true" (.ci/run installs and starts dockerd and exports CI=true, so
 * there a missing daemon fails them instead).
 */
export function dockerSkipNotice(
  probe: DockerProbe,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (probe.ok || env.CI === "true") return undefined;
  return (
    `⚠ SKIPPING the Docker sandbox tests: Docker is not usable (${probe.reason}). Install ` +
    "Debian's docker.io and start `dockerd --iptables=false --bridge=none`; under CI=true these " +
    "tests are required."
  );
}

/** The host files of the recipe: each binary found on PATH and every library it links. */
function recipeFiles(): { binaries: string[]; libraries: string[] } {
  const binaries: string[] = [];
  for (const name of BINARIES) {
    const found = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]
      .map((dir) => join(dir, name))
      .find((path) => existsSync(path));
    if (found) binaries.push(found);
  }
  const libraries = new Set<string>();
  for (const binary of binaries) {
    const run = spawnSync("ldd", [binary], { encoding: "utf8" });
    for (const match of run.stdout.matchAll(/(\/\S+)\s+\(0x/g)) libraries.add(match[1] as string);
  }
  return { binaries, libraries: [...libraries].sort() };
}

/** The image tag for the current recipe. */
function recipeTag(files: { binaries: string[]; libraries: string[] }): string {
  const hash = createHash("sha256").update(RECIPE_VERSION).update(PASSWD).update(GROUP);
  for (const path of [...files.binaries, ...files.libraries]) {
    hash.update(path).update(readFileSync(path));
  }
  return `${TEST_IMAGE_REPO}:${hash.digest("hex").slice(0, 16)}`;
}

function imageExists(tag: string): boolean {
  return spawnSync("docker", ["image", "inspect", tag], { stdio: "ignore" }).status === 0;
}

/** Writes the root filesystem into `root`. */
function stageRootfs(root: string, files: { binaries: string[]; libraries: string[] }): void {
  for (const dir of ["usr/bin", "etc", "tmp", "workspace", "root", "proc", "dev", "sys"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  chmodSync(join(root, "tmp"), 0o1777);
  for (const binary of files.binaries) {
    const target = join(root, "usr/bin", binary.split("/").pop() as string);
    copyFileSync(binary, target);
    chmodSync(target, 0o755);
  }
  for (const library of files.libraries) {
    mkdirSync(join(root, dirname(library)), { recursive: true });
    copyFileSync(library, join(root, library));
  }
  execFileSync("ln", ["-s", "usr/bin", join(root, "bin")]);
  writeFileSync(join(root, "etc/passwd"), PASSWD);
  writeFileSync(join(root, "etc/group"), GROUP);
}

/**
 * The tag of the test image, importing it first when this recipe has not been built yet. Throws
 * when the import fails (the tests cannot run without it).
 */
export async function ensureSandboxTestImage(): Promise<string> {
  const files = recipeFiles();
  const tag = recipeTag(files);
  if (imageExists(tag)) return tag;
  const stage = await mkdtemp(join(tmpdir(), "pincer-sandbox-image-"));
  try {
    const root = join(stage, "root");
    stageRootfs(root, files);
    const tarball = join(stage, "rootfs.tar");
    execFileSync("tar", ["-C", root, "-cf", tarball, "."]);
    execFileSync("docker", [
      "import",
      "--change",
      "ENV PATH=/usr/bin:/bin",
      "--change",
      `LABEL ${TEST_LABEL}=1`,
      tarball,
      tag,
    ]);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
  removeStaleTags(tag);
  return tag;
}

/** Removes the test images of earlier recipes (the current one stays for the next run). */
function removeStaleTags(current: string): void {
  const listed = spawnSync("docker", ["image", "ls", TEST_IMAGE_REPO, "--format", "{{.Tag}}"], {
    encoding: "utf8",
  });
  for (const tagName of listed.stdout.split("\n").filter(Boolean)) {
    const tag = `${TEST_IMAGE_REPO}:${tagName}`;
    if (tag !== current) spawnSync("docker", ["image", "rm", tag], { stdio: "ignore" });
  }
}

/** Removes every sandbox container made for `workspaceRoot` (afterAll of each sandbox test file). */
export function removeSandboxContainers(workspaceRoot: string): void {
  const listed = spawnSync(
    "docker",
    ["ps", "-aq", "--filter", `label=pincer.workspaceRoot=${workspaceRoot}`],
    { encoding: "utf8" },
  );
  const ids = (listed.stdout ?? "").split("\n").filter(Boolean);
  if (ids.length > 0) spawnSync("docker", ["rm", "-f", ...ids], { stdio: "ignore" });
}
