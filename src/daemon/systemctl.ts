// Running `systemctl --user …`: a runner function passed to the service commands, so tests check
// the exact invocations without systemd. The real runner is only built when systemctl is on PATH.
import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** The outcome of one systemctl call (never throws for a non-zero exit). */
export interface SystemctlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `systemctl <args>`; args always start with `--user`. */
export type SystemctlRunner = (args: string[]) => Promise<SystemctlResult>;

/** The systemctl executable on `env.PATH`, if any. */
export function findSystemctl(env: Record<string, string | undefined>): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, "systemctl");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here (or not executable): keep looking on PATH.
    }
  }
  return undefined;
}

/** A runner for the systemctl at `binary`, with `env` as its environment. */
export function createSystemctlRunner(
  binary: string,
  env: Record<string, string | undefined>,
): SystemctlRunner {
  return (args) =>
    new Promise((resolve) => {
      execFile(binary, args, { env, timeout: 60_000 }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({
          code,
          stdout: String(stdout),
          stderr: String(stderr || (err && !stderr ? err.message : "")),
        });
      });
    });
}

/** The shell form of a systemctl call, for messages and manual instructions. */
export function formatSystemctl(args: string[]): string {
  return ["systemctl", ...args].join(" ");
}
