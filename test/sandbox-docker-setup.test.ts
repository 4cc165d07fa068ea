// `pincer sandbox setup`: the failure paths only (no test pulls a real image). A base image at an
// unreachable registry must give the registry sentence and the offline routes; a dead DOCKER_HOST
// must say Docker is not running, before any build starts.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { dockerSkipNotice, probeDocker } from "./helpers/sandbox-image.js";

const probe = probeDocker();
const notice = dockerSkipNotice(probe);
if (notice) console.warn(notice);

/** A tag no test may leave behind. */
const TAG = "pincer-sandbox-test:setup-must-not-exist";

describe.skipIf(notice !== undefined)("pincer sandbox setup", () => {
  it("names the unreachable registry and the offline ways to get an image", async () => {
    const sb = createCliSandbox({ PATH: process.env.PATH ?? "" });
    // Port 1 on loopback refuses at once: the pull fails the way an offline machine's does.
    const base = "127.0.0.1:1/debian:bookworm-slim";
    const run = await sb.run(["sandbox", "setup", "--image", TAG, "--base", base]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /Building pincer-sandbox-test:setup-must-not-exist from .*scripts\/sandbox\/Dockerfile/,
    );
    expect(run.stderr).toMatch(
      /Cannot build pincer-sandbox-test:setup-must-not-exist: the base image 127\.0\.0\.1:1\/debian:bookworm-slim could not be pulled, the image registry is not reachable \(.*connection refused/,
    );
    expect(run.stderr).toMatch(/docker load -i/);
    expect(run.stderr).toMatch(/--base <mirror>/);
    expect(run.stderr).toMatch(/docker import - pincer-sandbox-test:setup-must-not-exist/);
    expect(spawnSync("docker", ["image", "inspect", TAG], { stdio: "ignore" }).status).not.toBe(0);
  });

  it("says Docker is not running when the daemon cannot be reached, before building", async () => {
    const sb = createCliSandbox({ PATH: process.env.PATH ?? "" });
    sb.env.DOCKER_HOST = `unix://${join(sb.home, "no-docker.sock")}`;
    const run = await sb.run(["sandbox", "setup"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Cannot build the sandbox image: Docker is not running: /);
    expect(run.stdout).not.toMatch(/Building/);
  });
});
