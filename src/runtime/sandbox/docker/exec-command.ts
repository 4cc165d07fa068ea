// One shell command inside a sandbox container: the `docker exec` argv to spawn on the host, and a
// stop that really ends it. Killing the `docker exec` client leaves the process running in the
// container, so the command runs under a small wrapper shell that records its pid (a `docker
// exec` process leads its own process group) in a file; stop signals that whole group from a
// second `docker exec`.
import { randomUUID } from "node:crypto";
import type { Logger } from "../../../lib/logger.js";
import type { SandboxCommand, SandboxCommandParams } from "../backend.js";
import { runDocker } from "./cli.js";

/** Writes the wrapper's pid, runs the command as a child (not exec: the group must stay), cleans up. */
const WRAPPER =
  '{ echo $$ > "$1"; } 2>/dev/null; /bin/sh -c "$2"; status=$?; rm -f "$1" 2>/dev/null; exit $status';
/** Signals the group whose leader's pid is in file "$1" with "$2" (silent when gone); KILL drops the file. */
const STOPPER =
  'pid=$(cat "$1" 2>/dev/null) && [ -n "$pid" ] && kill -s "$2" -- "-$pid" 2>/dev/null; [ "$2" = KILL ] && rm -f "$1"; exit 0';
const STOP_TIMEOUT_MS = 15_000;

/** Inputs of {@link dockerExecCommand}. */
export interface DockerExecParams {
  container: string;
  command: SandboxCommandParams;
  /** Environment of the host `docker` client. */
  hostEnv: NodeJS.ProcessEnv;
  /** Host cwd of the client (any existing dir). */
  hostCwd: string;
  logger?: Logger;
}

/** The host command that runs `params.command` in the container, with an in-container stop. */
export function dockerExecCommand(params: DockerExecParams): SandboxCommand {
  const pidFile = `/tmp/.pincer-exec-${randomUUID()}.pid`;
  const argv = ["docker", "exec", "-i", "--workdir", params.command.workdir];
  for (const [key, value] of Object.entries(params.command.env ?? {})) {
    argv.push("--env", `${key}=${value}`);
  }
  argv.push(params.container, "/bin/sh", "-c", WRAPPER, "pincer-exec", pidFile);
  argv.push(params.command.command);
  return {
    argv,
    env: params.hostEnv,
    cwd: params.hostCwd,
    stop: async (signal) => {
      const name = signal.replace(/^SIG/, "");
      const stopped = await runDocker({
        args: ["exec", params.container, "/bin/sh", "-c", STOPPER, "pincer-stop", pidFile, name],
        env: params.hostEnv,
        timeoutMs: STOP_TIMEOUT_MS,
      });
      if (!stopped.ok) {
        params.logger?.warn(
          { container: params.container, signal },
          `sandbox: stopping a command in the container failed: ${stopped.error}`,
        );
      }
    },
  };
}
