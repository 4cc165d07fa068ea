// Runs one `docker` CLI command and turns every way it can go wrong (no CLI, no daemon, no
// permission, a timeout, a non-zero exit) into a value with a sentence a user can act on. The
// backend drives Docker only through this: no SDK dependency, the user's own CLI config and
// DOCKER_HOST/DOCKER_CONTEXT apply as they do in their shell.
import { spawn } from "node:child_process";

/** Inputs of {@link runDocker}. */
export interface DockerRunParams {
  args: string[];
  /** Environment of the `docker` client (DOCKER_HOST, PATH, ...). */
  env: NodeJS.ProcessEnv;
  /** Kill the client after this long (the daemon may hang); default 60 s. */
  timeoutMs?: number;
}

/** A finished `docker` command: its exit code and output. */
export interface DockerOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** The outcome of {@link runDocker}: the output of a zero exit, else why it failed. */
export type DockerRun =
  | { ok: true; output: DockerOutput }
  | { ok: false; error: string; output?: DockerOutput };

const DEFAULT_TIMEOUT_MS = 60_000;
/** Output kept per stream: docker's own messages are short; command output is not read here. */
const OUTPUT_CAP = 1_000_000;

/** Runs `docker ...args`; never throws. A non-zero exit is an error value naming the command. */
export function runDocker(params: DockerRunParams): Promise<DockerRun> {
  return new Promise((resolveRun) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const child = spawn("docker", params.args, {
      env: params.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, params.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    timer.unref();
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stdout.length < OUTPUT_CAP) stdout += chunk;
    });
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < OUTPUT_CAP) stderr += chunk;
    });
    child.on("error", (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolveRun({ ok: false, error: spawnFailure(err) });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const output = { code: code ?? -1, stdout, stderr };
      if (timedOut) {
        const seconds = Math.round((params.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000);
        resolveRun({
          ok: false,
          error: `Docker did not answer \`docker ${params.args[0]}\` within ${seconds} s: is the daemon hung?`,
          output,
        });
      } else if (code === 0) {
        resolveRun({ ok: true, output });
      } else {
        resolveRun({ ok: false, error: describeDockerFailure(params.args, output), output });
      }
    });
  });
}

/** The sentence for a `docker` client that could not be started at all. */
function spawnFailure(err: NodeJS.ErrnoException): string {
  if (err.code === "ENOENT") {
    return (
      "Docker is not installed: the `docker` CLI was not found on PATH. Install Docker " +
      '(Debian: apt-get install docker.io) or set sandbox.backend to "bwrap".'
    );
  }
  return `Docker could not be run: ${err.message}`;
}

/** True when `stderr` says the daemon is unreachable (not running, wrong DOCKER_HOST, no access). */
export function isDaemonUnreachable(stderr: string): boolean {
  return /Cannot connect to the Docker daemon|error during connect|Is the docker daemon running|permission denied while trying to connect/i.test(
    stderr,
  );
}

/**
 * A clear sentence for a failed `docker` command: the daemon unreachable (not running / no
 * permission) is said as such, anything else quotes Docker's own first line of complaint.
 */
export function describeDockerFailure(args: string[], output: DockerOutput): string {
  const said = firstLine(output.stderr) || firstLine(output.stdout) || `exit code ${output.code}`;
  if (/permission denied while trying to connect/i.test(output.stderr)) {
    return `Docker is not usable: permission denied on the daemon socket (${said}). Add the gateway's user to the docker group or point DOCKER_HOST at a daemon it may use.`;
  }
  if (isDaemonUnreachable(output.stderr)) {
    return `Docker is not running: ${said}. Start the daemon (e.g. systemctl start docker, or dockerd) and try again.`;
  }
  return `docker ${args[0]} failed: ${said}`;
}

/** The first non-empty line of `text`, trimmed. */
function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .find(Boolean) ?? ""
  );
}
