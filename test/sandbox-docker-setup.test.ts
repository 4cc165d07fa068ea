// `pincer sandbox setup`: the failure paths only (no test pulls a real image). A base image at an
// unreachable registry must give the registry sentence and the offline routes; a dead DOCKER_HOST
// must say Docker is not running, before any build starts.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CliError } from "../src/cli/command-context.js";
import { run as setup } from "../src/cli/sandbox/setup.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { dockerSkipNotice, probeDocker } from "./helpers/sandbox-image.js";

const probe = probeDocker();
const notice = dockerSkipNotice(probe);
if (notice) console.warn(notice);

/** A tag no test may leave behind. */
const TAG = "pincer-sandbox-test:setup-must-not-exist";

/** Runs `pincer sandbox setup` with `opts`; the CliError it ends with (or undefined) and its output. */
async function runSetup(
  sb: ReturnType<typeof createCliSandbox>,
  opts: { image?: string; base?: string },
): Promise<{ error: CliError | undefined; stdout: string }> {
  let stdout = "";
  try {
    stdout = (await sb.call(setup as never, { opts })).stdout;
    return { error: undefined, stdout };
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return { error: error as CliError, stdout };
  }
}

describe.skipIf(notice !== undefined)("pincer sandbox setup", () => {
  it("names the unreachable registry and the offline ways to get an image", async () => {
    const sb = createCliSandbox({ PATH: process.env.PATH ?? "" });
    // Port 1 on loopback refuses at once: the pull fails the way an offline machine's does.
    const { error } = await runSetup(sb, { image: TAG, base: "127.0.0.1:1/debian:bookworm-slim" });
    expect(error?.exitCode).toBe(1);
    expect(error?.message).toMatch(
      /^Cannot build pincer-sandbox-test:setup-must-not-exist: the base image 127\.0\.0\.1:1\/debian:bookworm-slim could not be pulled, the image registry is not reachable \(.*connection refused/,
    );
    expect(error?.message).toMatch(/docker load -i/);
    expect(error?.message).toMatch(/--base <mirror>/);
    expect(error?.message).toMatch(/docker import - pincer-sandbox-test:setup-must-not-exist/);
    expect(spawnSync("docker", ["image", "inspect", TAG], { stdio: "ignore" }).status).not.toBe(0);
  });

  it("says Docker is not running when the daemon cannot be reached, before building", async () => {
    const sb = createCliSandbox({ PATH: process.env.PATH ?? "" });
    sb.env.DOCKER_HOST = `unix://${join(sb.home, "no-docker.sock")}`;
    const { error, stdout } = await runSetup(sb, {});
    expect(error?.message).toMatch(/^Cannot build the sandbox image: Docker is not running: /);
    expect(stdout).toBe("");
  });
});
