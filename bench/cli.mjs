// Whole-process wall time of `pincer --help` and `pincer agents list --bindings` (spawn to exit).
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { writeLargeConfig } from "./config.mjs";
import { medianMs } from "./measure.mjs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const bin = fileURLToPath(new URL(`../${pkg.bin.pincer}`, import.meta.url));

function timeCommand(args, env) {
  return medianMs(() => {
    const result = spawnSync(process.execPath, [bin, ...args], { env, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`pincer ${args.join(" ")} failed: ${result.stderr}`);
  }, 11);
}

/** Bench rows: whole-process times of the two commands users run most to look around. */
export async function cliRows() {
  const dir = writeLargeConfig(20);
  // NODE_EXTRA_CA_CERTS (set in this sandbox) makes every node start parse a CA bundle, ~40 ms;
  // it is not part of Pincer's cost, so the rows below run without it (the baseline row too).
  const { NODE_EXTRA_CA_CERTS: _certs, ...rest } = process.env;
  const env = { ...rest, HOME: dir, OPENCLAW_STATE_DIR: dir, NO_COLOR: "1" };
  const node = await medianMs(() => spawnSync(process.execPath, ["-e", "0"], { env }), 11);
  const help = await timeCommand(["--help"], env);
  const list = await timeCommand(["agents", "list", "--bindings"], env);
  rmSync(dir, { recursive: true, force: true });
  return [
    { name: "node -e 0 (baseline process)", result: `${node.toFixed(0)} ms`, target: "" },
    { name: "pincer --help (whole process)", result: `${help.toFixed(0)} ms`, target: "< 150 ms" },
    {
      name: "pincer agents list --bindings (20 agents)",
      result: `${list.toFixed(0)} ms`,
      target: "< 150 ms",
    },
  ];
}
