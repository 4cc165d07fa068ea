// `pincer gateway stop` against a real unsupervised gateway process (built dist): the pid in the
// state-dir lock gets SIGTERM, the command waits for the exit, the lock is released; then `status`
// and a second `stop` report that nothing runs (exit 1).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.pincer);

describe("pincer gateway stop (process)", () => {
  it("stops the gateway recorded in the state-dir lock and reports nothing running after", async () => {
    const sb = createCliSandbox();
    mkdirSync(sb.stateDir, { recursive: true });
    writeFileSync(
      sb.configPath,
      JSON.stringify({ logging: { file: join(sb.home, "gateway.log") } }),
    );
    const child = spawn(process.execPath, [bin, "gateway", "run", "--port", "0"], {
      env: { PATH: process.env.PATH, ...sb.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      for (let i = 0; i < 200 && !out.includes("listening on"); i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(out).toContain("listening on");
      const running = await sb.run(["gateway", "status"]);
      expect(running.code).toBe(0);
      expect(running.stdout).toContain(`gateway: running (pid ${child.pid})`);

      const stopped = await sb.run(["gateway", "stop"]);
      expect(stopped.stderr).toBe("");
      expect(stopped.code).toBe(0);
      expect(stopped.stdout).toBe(`gateway (pid ${child.pid}) stopped\n`);
      expect(await exited).toBe(0);
      expect(existsSync(join(sb.stateDir, "gateway.lock"))).toBe(false);

      const again = await sb.run(["gateway", "stop"]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain("no gateway is running");
      const status = await sb.run(["gateway", "status"]);
      expect(status.code).toBe(1);
      expect(status.stdout).toContain("gateway: not running");
      const restart = await sb.run(["gateway", "restart"]);
      expect(restart.code).toBe(1);
      expect(restart.stderr).toContain("pincer gateway run");
    } finally {
      child.kill("SIGKILL");
    }
  });
});
