// The built `pincer gateway` as a real process: auth is on by default (a generated token in the state
// dir), a client without it is refused, one with it gets in, SIGTERM stops it cleanly (exit 0), and
// the log lines land as JSON in `logging.file`.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectParams, openClient, payloadOf, spawnGateway } from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

describe("pincer gateway (process)", () => {
  it("generates a token, refuses clients without it, and exits 0 on SIGTERM", async () => {
    const home = makeTempDir("pincer-gwproc-");
    const stateDir = join(home, ".openclaw");
    const logFile = join(home, "logs", "gateway.log");
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, "openclaw.json"), JSON.stringify({ logging: { file: logFile } }));
    const gw = spawnGateway(["--port", "0"], { HOME: home, OPENCLAW_STATE_DIR: stateDir });
    try {
      const url = await gw.waitForUrl();
      expect(url).toBeDefined();
      expect(gw.out).toContain("token created in");
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
      gw.child.kill("SIGTERM");
    }
    expect(await gw.exited).toBe(0);
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
    expect(gw.out).toContain(`log file: ${logFile}`);
  });
});
