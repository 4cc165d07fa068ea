// What the built `pincer gateway` loads before it listens, traced by the ESM loader's own hooks:
// no pi-ai (its model catalogue included: model refs are checked on the generated id table), no
// TypeBox, pino nor PostgreSQL client (no cluster.store), and no CommonJS package through `import` (Node's export lexer costs tens of ms;
// ws and commander are required). Right after ready the preload loads pi-ai for the first turn.
// pi-ai, pi-agent-core and TypeBox are bundled into dist/bin: helpers/bundled-modules.ts names the
// packages a chunk holds.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { packagesIn } from "./helpers/bundled-modules.js";
import { spawnGateway } from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const hook = fileURLToPath(new URL("./helpers/module-trace.mjs", import.meta.url));

type TraceLine = "ready" | { url: string; format: string };

function readTrace(file: string): { before: TraceLine[]; after: TraceLine[] } {
  const lines = existsSync(file)
    ? readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as TraceLine)
    : [];
  const at = lines.indexOf("ready");
  return at < 0
    ? { before: lines, after: [] }
    : { before: lines.slice(0, at), after: lines.slice(at + 1) };
}

const isPiAi = (line: TraceLine) =>
  line !== "ready" && packagesIn(line.url).includes("@mariozechner/pi-ai");

describe("pincer gateway start-up (process)", () => {
  it("loads no pi-ai, TypeBox, pino, postgres nor CommonJS-through-import before ready; pi-ai right after", async () => {
    const home = makeTempDir("pincer-startup-");
    const stateDir = join(home, ".openclaw");
    mkdirSync(stateDir, { recursive: true });
    // A built-in model: its ref is checked at start, on the id table.
    const config = {
      agents: { defaults: { model: "anthropic/claude-sonnet-4-5", skipBootstrap: true } },
    };
    writeFileSync(join(stateDir, "openclaw.json"), JSON.stringify(config));
    const trace = join(home, "modules.jsonl");
    const gw = spawnGateway(["--port", "0", "--auth", "token", "--token", "startup-token-1"], {
      HOME: home,
      OPENCLAW_STATE_DIR: stateDir,
      NODE_OPTIONS: `--import ${hook}`,
      MODULE_TRACE_FILE: trace,
    });
    try {
      expect(await gw.waitForUrl()).toBeDefined();
      const { before } = readTrace(trace);
      const urls = before.flatMap((line) => (line === "ready" ? [] : [line.url]));
      expect(
        urls.some((url) => url.includes("/dist/bin/")),
        "the trace saw the gateway",
      ).toBe(true);
      const forbidden = /^(@mariozechner\/.*|typebox|pino|postgres)$/;
      expect(urls.filter((url) => packagesIn(url).some((name) => forbidden.test(name)))).toEqual(
        [],
      );
      const commonJs = before.filter((line) => line !== "ready" && line.format === "commonjs");
      expect(commonJs).toEqual([]);
      // The preload after ready: pi-ai comes in without any request.
      for (let i = 0; i < 300 && !readTrace(trace).after.some(isPiAi); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(readTrace(trace).after.some(isPiAi), "pi-ai preloaded after ready").toBe(true);
    } finally {
      gw.child.kill("SIGTERM");
    }
    expect(await gw.exited).toBe(0);
  });

  it("never loads Baileys for a WhatsApp setup on the Cloud API only", async () => {
    const home = makeTempDir("pincer-startup-wa-");
    const stateDir = join(home, ".openclaw");
    mkdirSync(stateDir, { recursive: true });
    const cloud = { transport: "cloud", phoneNumberId: "111", accessToken: "t" };
    const config = {
      agents: { defaults: { model: "anthropic/claude-sonnet-4-5", skipBootstrap: true } },
      channels: {
        whatsapp: { accounts: { biz: { ...cloud, appSecret: "s", verifyToken: "v" } } },
      },
    };
    writeFileSync(join(stateDir, "openclaw.json"), JSON.stringify(config));
    const trace = join(home, "modules.jsonl");
    const gw = spawnGateway(["--port", "0", "--auth", "token", "--token", "startup-token-2"], {
      HOME: home,
      OPENCLAW_STATE_DIR: stateDir,
      NODE_OPTIONS: `--import ${hook}`,
      MODULE_TRACE_FILE: trace,
    });
    try {
      const url = String(await gw.waitForUrl()).replace(/^ws/, "http");
      // The account is up once its webhook answers the subscription handshake.
      const handshake = `${url}/webhooks/whatsapp/biz?hub.mode=subscribe&hub.verify_token=v&hub.challenge=up`;
      let answer = "";
      for (let i = 0; i < 200 && answer !== "up"; i++) {
        answer = await fetch(handshake).then((res) =>
          res.ok ? res.text().then((text) => text.trim()) : "",
        );
        if (answer !== "up") await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(answer, "the cloud account started").toBe("up");
      const { before, after } = readTrace(trace);
      const urls = [...before, ...after].flatMap((line) => (line === "ready" ? [] : [line.url]));
      expect(urls.filter((url) => url.includes("/@whiskeysockets/"))).toEqual([]);
    } finally {
      gw.child.kill("SIGTERM");
    }
    expect(await gw.exited).toBe(0);
  });
});
