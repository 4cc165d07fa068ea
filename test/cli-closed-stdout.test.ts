// `pincer … | head`: a reader that closes the pipe early is not a crash. The built CLI writes a long
// output into a pipe whose reader is gone: no EPIPE stack trace, the command's own exit code.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.pincer);

/** Runs the CLI with its stdout closed by the reader after the first chunk. */
function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const home = makeTempDir("pincer-epipe-");
  mkdirSync(join(home, ".openclaw"));
  const child = spawn(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH, HOME: home, OPENCLAW_STATE_DIR: join(home, ".openclaw") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  // Like `head -1`: read the first chunk, then close the pipe.
  child.stdout.once("data", () => child.stdout.destroy());
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stderr })));
}

describe("a CLI whose stdout reader goes away", () => {
  it.each([
    [["completion", "bash"], 0],
    [["models", "list"], 0],
  ])("%j ends with its own exit code and no EPIPE trace", async (args, expected) => {
    const run = await runIntoClosedPipe(args);
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled 'error' event/);
    expect(run.code).toBe(expected);
  });
});
