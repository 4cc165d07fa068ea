// `pincer sandbox setup [--image NAME] [--base IMAGE]`: builds the Docker sandbox's default image
// from the Dockerfile shipped in the package (scripts/sandbox/Dockerfile: Debian slim + the usual
// tools). Docker must be running and the base image pullable (or already loaded); when the registry
// cannot be reached the error says so and how to get an image onto the machine offline.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { findPackageRoot } from "../../lib/package-root.js";
import { DEFAULT_SANDBOX_IMAGE as DEFAULT_DOCKER_IMAGE } from "../../runtime/sandbox/config.js";
import { dockerAvailability } from "../../runtime/sandbox/docker/backend.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, printLine } from "../command-context.js";
import type { setupOptions } from "./commands.js";

/** Output lines kept to explain a failed build. */
const TAIL_LINES = 40;
/** What Docker prints when it cannot reach an image registry (classic builder and BuildKit). */
const REGISTRY_TROUBLE =
  /dial tcp|no such host|connection refused|i\/o timeout|TLS handshake timeout|failed to resolve|failed to do request|pull access denied|manifest unknown|Client\.Timeout|network is unreachable/i;

/** Builds the image; exit 0 when built, a CliError naming the problem otherwise. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof setupOptions>,
): Promise<number> {
  const image = opts.image ?? DEFAULT_DOCKER_IMAGE;
  const dockerfile = shippedDockerfile();
  const available = await dockerAvailability(ctx.env);
  if (!available.ok) throw new CliError(`Cannot build the sandbox image: ${available.reason}`);
  printLine(ctx, `Building ${image} from ${dockerfile} (Docker ${available.version ?? "?"}) …`);
  const args = ["build", "-t", image, "-f", dockerfile];
  if (opts.base) args.push("--build-arg", `BASE=${opts.base}`);
  args.push(join(dockerfile, ".."));
  const built = await streamBuild(ctx, args);
  if (built.code === 0) {
    printLine(ctx, `Built ${image}.`);
    if (image !== DEFAULT_DOCKER_IMAGE) {
      printLine(ctx, `Use it with agents.defaults.sandbox.docker.image: "${image}".`);
    }
    return 0;
  }
  throw new CliError(buildFailure({ image, base: opts.base, tail: built.tail }));
}

/** The Dockerfile in the package (beside dist/); a CliError when the install lacks it. */
function shippedDockerfile(): string {
  const root = findPackageRoot(import.meta.url);
  const path = root ? join(root, "scripts", "sandbox", "Dockerfile") : undefined;
  if (!path || !existsSync(path)) {
    throw new CliError(
      `The sandbox Dockerfile is missing from this install (looked for ${path ?? "scripts/sandbox/Dockerfile beside the package"}).`,
    );
  }
  return path;
}

/** Runs `docker build`, passing its output through and keeping the last lines. */
function streamBuild(ctx: CliContext, args: string[]): Promise<{ code: number; tail: string[] }> {
  return new Promise((resolveBuild) => {
    const tail: string[] = [];
    const keep = (chunk: string) => {
      tail.push(...chunk.split("\n").filter((line) => line.trim() !== ""));
      tail.splice(0, Math.max(0, tail.length - TAIL_LINES));
    };
    const child = spawn("docker", args, { env: ctx.env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      ctx.stdout(chunk);
      keep(chunk);
    });
    child.stderr.on("data", (chunk: string) => {
      ctx.stderr(chunk);
      keep(chunk);
    });
    child.on("error", (err) => {
      keep(err.message);
      resolveBuild({ code: -1, tail });
    });
    child.on("close", (code) => resolveBuild({ code: code ?? -1, tail }));
  });
}

/** The error of a failed build: a registry problem is named as such, with the offline routes. */
function buildFailure(params: { image: string; base: string | undefined; tail: string[] }): string {
  const base = params.base ?? "debian:bookworm-slim";
  const registryLine = params.tail.find((line) => REGISTRY_TROUBLE.test(line));
  if (registryLine) {
    return [
      `Cannot build ${params.image}: the base image ${base} could not be pulled, the image registry is not reachable (${registryLine.trim()}).`,
      "To build without a registry:",
      `  - load the base image from a file: docker save ${base} on a connected machine, then docker load -i <file> here, and run pincer sandbox setup again;`,
      "  - or use a registry mirror: pincer sandbox setup --base <mirror>/debian:bookworm-slim;",
      `  - or import a root filesystem directly: debootstrap bookworm ./rootfs && tar -C ./rootfs -c . | docker import - ${params.image}`,
      "    (then install the tools you need; the image must have /bin/sh and sleep).",
    ].join("\n");
  }
  const last = params.tail.slice(-5).join("\n");
  return `Cannot build ${params.image}: docker build failed.\n${last}`;
}
