// The built `pincer gateway` restarting itself on a chat `/restart`: the client gets "Restarting…",
// the process closes the gateway and starts it again in place (same pid, same port, a second ready
// line), a new client is answered, and SIGTERM still stops it cleanly (exit 0).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  chatEventText,
  chatSendAndWait,
  closedPort,
  connectParams,
  openClient,
  spawnGateway,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

async function connected(url: string) {
  const client = await openClient(url);
  const hello = await client.request("connect", connectParams());
  expect(hello.ok).toBe(true);
  return client;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("pincer gateway /restart (process)", () => {
  it("answers Restarting…, restarts in place on the same port, and stops on SIGTERM", async () => {
    const home = makeTempDir("pincer-gwrestart-");
    const stateDir = join(home, ".openclaw");
    const logFile = join(home, "logs", "gateway.log");
    mkdirSync(stateDir, { recursive: true });
    const port = await closedPort();
    const config = {
      gateway: { auth: { mode: "token", token: TEST_TOKEN } },
      logging: { file: logFile },
    };
    writeFileSync(join(stateDir, "openclaw.json"), JSON.stringify(config));
    const gw = spawnGateway(["--port", String(port)], { HOME: home, OPENCLAW_STATE_DIR: stateDir });
    const ready = () => gw.out.match(/listening on ws:\/\/\S+/g) ?? [];
    try {
      const url = await gw.waitForUrl();
      expect(url).toBe(`ws://127.0.0.1:${port}`);
      const client = await connected(url!);
      const { event } = await chatSendAndWait(client, { message: "/restart", runId: "restart-1" });
      expect(chatEventText(event)).toBe("Restarting…");
      await until(() => ready().length === 2, "the second ready line");
      expect(ready()[1]).toBe(`listening on ws://127.0.0.1:${port}`);
      const after = await connected(url!);
      const { event: whoami } = await chatSendAndWait(after, {
        message: "/whoami",
        runId: "who-1",
      });
      expect(chatEventText(whoami)).toContain("Channel: webchat");
      expect(ready()).toHaveLength(2);
    } finally {
      gw.child.kill("SIGTERM");
    }
    expect(await gw.exited).toBe(0);
    const messages = readFileSync(logFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(
      messages.some((msg) => msg.includes("restart requested") && msg.includes("restarting")),
    ).toBe(true);
    expect(messages.filter((msg) => msg === "gateway ready")).toHaveLength(2);
  });
});
