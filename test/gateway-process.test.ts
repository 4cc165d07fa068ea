// The built `pincer gateway` as a real process: auth is on by default (a generated token in the state
// dir), a client without it is refused, one with it gets in, SIGTERM stops it cleanly (exit 0), and
// the log lines land as JSON in `logging.file`.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { connectParams, openClient, payloadOf } from "./helpers/gateway-sandbox.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.pincer);

describe("pincer gateway (process)", () => {
  it("generates a token, refuses clients without it, and exits 0 on SIGTERM", async () => {
    const home = mkdtempSync(join(tmpdir(), "pincer-gwproc-"));
    const stateDir = join(home, ".openclaw");
    const logFile = join(home, "logs", "gateway.log");
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, "openclaw.json"), JSON.stringify({ logging: { file: logFile } }));
    const child = spawn(process.execPath, [bin, "gateway", "--port", "0"], {
      env: { PATH: process.env.PATH, HOME: home, OPENCLAW_STATE_DIR: stateDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      for (let i = 0; i < 200 && !/listening on ws:\/\/\S+/.test(out); i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const url = /listening on (ws:\/\/\S+)/.exec(out)?.[1];
      expect(url).toBeDefined();
      expect(out).toContain("token created in");
      const tokenFile = join(stateDir, "gateway.token");
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      const token = readFileSync(tokenFile, "utf8").trim();

      const stranger = await openClient(url!);
      const refused = await stranger.request(
        "connect",
        connectParams({ auth: { token: "guess" } }),
      );
      expect(refused.ok).toBe(false);
      expect(JSON.stringify(refused.error)).toContain("AUTH_TOKEN_MISMATCH");

      const local = await openClient(url!);
      const hello = await local.request("connect", connectParams({ auth: { token } }));
      expect(hello.ok).toBe(true);
      expect(payloadOf(hello).auth).toMatchObject({ method: "token" });
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    const logged = readFileSync(logFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(logged.map((line) => line.msg)).toEqual(
      expect.arrayContaining([
        "gateway ready",
        "received SIGTERM: shutting down",
        "gateway stopped",
      ]),
    );
    expect(out).toContain(`log file: ${logFile}`);
  });
});
