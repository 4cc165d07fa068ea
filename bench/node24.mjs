// `npm run bench:node24`: the same bench (bench/run.mjs) on Node 24, so both supported Node lines are
// measured. The Node used: `PINCER_BENCH_NODE` (a path) if set; else this Node if it is already 24
// or newer; else the official binary from the npm registry's `node-<platform>-<arch>` package,
// installed once with `npm install --no-save --prefix <temp dir>` (never into this project). Fails
// with a message naming what to do when that package cannot be installed (no registry access).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const VERSION = "24.22.3";
const MIN_MAJOR = 24;
const pkg = `node-${process.platform}-${process.arch}`;

function fail(message) {
  console.error(`bench:node24: ${message}`);
  process.exit(1);
}

function majorOf(node) {
  const out = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  return { version: out, major: Number(/^v(\d+)/.exec(out)?.[1]) };
}

/** The Node binary from the registry package, installed into a temp dir on first use. */
function installedNode() {
  const prefix = join(tmpdir(), `pincer-bench-node-${VERSION}`);
  const bin = join(prefix, "node_modules", pkg, "bin", "node");
  if (existsSync(bin)) return bin;
  console.error(`bench:node24: installing ${pkg}@${VERSION} into ${prefix}`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const install = spawnSync(
    npm,
    ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", prefix, `${pkg}@${VERSION}`],
    { stdio: "inherit" },
  );
  if (install.status !== 0 || !existsSync(bin)) {
    fail(
      `could not install ${pkg}@${VERSION} from the npm registry (no access, or no such ` +
        "package for this platform). Install Node 24 yourself and run " +
        "PINCER_BENCH_NODE=/path/to/node npm run bench:node24",
    );
  }
  return bin;
}

function pickNode() {
  const fromEnv = process.env.PINCER_BENCH_NODE;
  if (fromEnv) {
    if (!existsSync(fromEnv)) fail(`PINCER_BENCH_NODE=${fromEnv} does not exist`);
    return fromEnv;
  }
  if (Number(process.versions.node.split(".")[0]) >= MIN_MAJOR) return process.execPath;
  return installedNode();
}

const node = pickNode();
const { version, major } = majorOf(node);
if (!(major >= MIN_MAJOR)) fail(`${node} is Node ${version}, not ${MIN_MAJOR} or newer`);
console.error(`bench:node24: running bench/run.mjs on Node ${version} (${node})`);
const run = spawnSync(node, [fileURLToPath(new URL("./run.mjs", import.meta.url))], {
  stdio: "inherit",
});
process.exit(run.status ?? 1);
