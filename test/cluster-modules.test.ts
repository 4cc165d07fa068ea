// The default path never loads the NATS client: a built `pincer gateway` without `cluster` runs its
// start-up and its run-module preload (pi-ai and the tools) without `nats` (traced by the ESM loader's
// hooks, as gateway-startup-modules.test.ts does), and serves a turn in-process without it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { modulesIn, packagesIn } from "./helpers/bundled-modules.js";
import { spawnGateway } from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const hook = fileURLToPath(new URL("./helpers/module-trace.mjs", import.meta.url));

function tracedUrls(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as "ready" | { url: string })
    .flatMap((line) => (line === "ready" ? [] : [line.url]));
}

describe("a gateway without cluster", () => {
  it("never loads the nats client (start-up and preload)", async () => {
    const home = makeTempDir("pincer-nonats-");
    const stateDir = join(home, ".openclaw");
    mkdirSync(stateDir, { recursive: true });
    const config = {
      agents: { defaults: { model: "anthropic/claude-sonnet-4-5", skipBootstrap: true } },
    };
    writeFileSync(join(stateDir, "openclaw.json"), JSON.stringify(config));
    const trace = join(home, "modules.jsonl");
    const gw = spawnGateway(["--port", "0", "--auth", "token", "--token", "nonats-token-1"], {
      HOME: home,
      OPENCLAW_STATE_DIR: stateDir,
      NODE_OPTIONS: `--import ${hook}`,
      MODULE_TRACE_FILE: trace,
    });
    try {
      expect(await gw.waitForUrl()).toBeDefined();
      // Once the preload has loaded pi-ai, everything a turn needs is in.
      const hasPiAi = (url: string) => packagesIn(url).includes("@mariozechner/pi-ai");
      for (let i = 0; i < 300 && !tracedUrls(trace).some(hasPiAi); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const urls = tracedUrls(trace);
      expect(urls.some(hasPiAi)).toBe(true);
      expect(
        // The client package, and the queue and dispatch modules (in whichever chunk).
        urls.filter((url) =>
          modulesIn(url).some((path) =>
            /^node_modules\/nats\/|^src\/cluster\/(queue|dispatch)\//.test(path),
          ),
        ),
      ).toEqual([]);
    } finally {
      gw.child.kill("SIGTERM");
    }
    expect(await gw.exited).toBe(0);
  });
});
