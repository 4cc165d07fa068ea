// `pincer gateway stop` against a real unsupervised gateway process (built dist): the pid in the
// state-dir lock gets SIGTERM, the command waits for the exit, the lock is released; then `status`
// reports that nothing runs (exit 1), and a second `stop` is a no-op (exit 0, "nothing to stop").
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { spawnGateway } from "./helpers/gateway-sandbox.js";

describe("pincer gateway stop (process)", () => {
  it("stops the gateway recorded in the state-dir lock and reports nothing running after", async () => {
    const sb = createCliSandbox();
    mkdirSync(sb.stateDir, { recursive: true });
    writeFileSync(
      sb.configPath,
      JSON.stringify({ logging: { file: join(sb.home, "gateway.log") } }),
    );
    const gw = spawnGateway(["run", "--port", "0"], sb.env);
    try {
      await gw.waitForUrl();
      expect(gw.out).toContain("listening on");
      const running = await sb.run(["gateway", "status"]);
      expect(running.code).toBe(0);
      expect(running.stdout).toContain(`gateway: running (pid ${gw.child.pid})`);

      const stopped = await sb.run(["gateway", "stop"]);
      expect(stopped.stderr).toBe("");
      expect(stopped.code).toBe(0);
      expect(stopped.stdout).toBe(`gateway (pid ${gw.child.pid}) stopped\n`);
      expect(await gw.exited).toBe(0);
      expect(existsSync(join(sb.stateDir, "gateway.lock"))).toBe(false);

      const again = await sb.run(["gateway", "stop"]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain("no gateway is running");
      expect(again.stdout).toContain("nothing to stop");
      const status = await sb.run(["gateway", "status"]);
      expect(status.code).toBe(1);
      expect(status.stdout).toContain("gateway: not running");
      const restart = await sb.run(["gateway", "restart"]);
      expect(restart.code).toBe(1);
      expect(restart.stderr).toContain("pincer gateway run");
    } finally {
      gw.child.kill("SIGKILL");
    }
  });
});
