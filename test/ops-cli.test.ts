// The operator commands against the built `pincer gateway` as a real process: `logs` shows the lines it
// wrote to its log file, `dashboard` finds it running with its generated token, and `doctor` on the state
// dir it created finds its live lock fine and the state dir private.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { closedPort, spawnGateway } from "./helpers/gateway-sandbox.js";

describe("ops commands against a running gateway process", () => {
  it("logs, dashboard and doctor see the real gateway", async () => {
    // The config lives outside the state dir (written 0600), so the gateway creates the state dir itself.
    const probe = createCliSandbox();
    const configPath = join(probe.home, "etc", "openclaw.json");
    const sandbox = createCliSandbox({ OPENCLAW_CONFIG_PATH: configPath });
    const logFile = join(sandbox.home, "logs", "gateway.log");
    const port = await closedPort();
    mkdirSync(join(configPath, ".."), { recursive: true });
    writeFileSync(configPath, JSON.stringify({ gateway: { port }, logging: { file: logFile } }), {
      mode: 0o600,
    });
    const gw = spawnGateway([], sandbox.env);
    try {
      expect(await gw.waitForUrl()).toBe(`ws://127.0.0.1:${port}`);

      const logs = await sandbox.run(["logs", "--json"]);
      expect(logs.code).toBe(0);
      const records = logs.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as { msg: string });
      expect(records.length).toBeGreaterThan(0);
      const human = await sandbox.run(["logs", "--limit", "1"]);
      expect(human.stdout).toContain(records.at(-1)?.msg);

      const token = readFileSync(join(sandbox.stateDir, "gateway.token"), "utf8").trim();
      const dashboard = await sandbox.run(["dashboard", "--no-open"]);
      expect(dashboard.stdout).toContain(
        `Dashboard URL: http://127.0.0.1:${port}/#token=${encodeURIComponent(token)}`,
      );
      expect(dashboard.stdout).toContain("Gateway: running");

      const doctor = await sandbox.run(["doctor", "--offline", "--json"]);
      const body = JSON.parse(doctor.stdout) as {
        findings: Array<{ checkId: string; message: string }>;
      };
      expect(body.findings.filter((f) => f.checkId === "locks")).toEqual([]);
      expect(body.findings.filter((f) => f.checkId === "permissions")).toEqual([]);
    } finally {
      gw.child.kill("SIGTERM");
      await gw.exited;
    }
  });
});
