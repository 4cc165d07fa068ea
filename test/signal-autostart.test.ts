// Signal's `autoStart`: the gateway starts `signal-cli -a <account> daemon --http <host>:<port>`
// itself (a stand-in executable serving the daemon's API), waits for /api/v1/check, answers a DM
// through it, starts it again when it dies, and stops it when the gateway closes.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { dmEnvelope } from "./helpers/fake-signal-cli.js";
import { createGatewaySandbox, type GatewaySandbox } from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const BOT = "+15550000001";
const ALICE = "+15557654321";
const BIN = fileURLToPath(new URL("./helpers/fake-signal-cli-bin.mjs", import.meta.url));

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

type Entry = Record<string, unknown> & { pid: number };

function entries(logFile: string): Entry[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Entry);
}

/** Polls the stand-in's log until `check` finds what it needs (15 s bound: a loaded machine). */
async function waitForLog<T>(logFile: string, check: (all: Entry[]) => T | undefined): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = check(entries(logFile));
    if (found !== undefined) return found;
    if (Date.now() > deadline)
      throw new Error(`stand-in log never matched: ${JSON.stringify(entries(logFile))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("Signal autoStart", () => {
  it("starts, uses, restarts and stops its own signal-cli daemon", async () => {
    const dir = makeTempDir("pincer-signal-cli-");
    const logFile = join(dir, "log.jsonl");
    const cliPath = join(dir, "signal-cli");
    writeFileSync(
      cliPath,
      `#!/bin/sh\nexec "${process.execPath}" "${BIN}" --log "${logFile}" "$@"\n`,
    );
    chmodSync(cliPath, 0o755);
    const port = await freePort();
    box = await createGatewaySandbox({
      config: () => ({
        channels: {
          signal: {
            account: BOT,
            cliPath,
            httpPort: port,
            startupTimeoutMs: 20_000,
            dmPolicy: "open",
            allowFrom: ["*"],
          },
        } as OpenClawConfig["channels"],
      }),
    });
    const first = await waitForLog(logFile, (all) => {
      const started = all.find((e) => e.started);
      return started && all.some((e) => e.pid === started.pid && e.stream === BOT)
        ? started
        : undefined;
    });
    expect(first.started).toEqual([
      "-a",
      BOT,
      "daemon",
      "--http",
      `127.0.0.1:${port}`,
      "--no-receive-stdout",
      "--ignore-stories",
    ]);

    box.fake.text("hi from the daemon");
    const push = (envelope: unknown) =>
      fetch(`http://127.0.0.1:${port}/__push`, {
        method: "POST",
        body: JSON.stringify({ envelope }),
      });
    await push(dmEnvelope({ from: ALICE, text: "hello" }));
    const sent = await waitForLog(logFile, (all) => all.find((e) => e.method === "send"));
    expect(sent.params).toMatchObject({
      account: BOT,
      recipient: [ALICE],
      message: "hi from the daemon",
    });

    // The daemon dies: the account ends and the host's supervisor starts it (and a daemon) again.
    process.kill(first.pid, "SIGKILL");
    const second = await waitForLog(logFile, (all) => {
      const started = all.find((e) => e.started && e.pid !== first.pid);
      return started && all.some((e) => e.pid === started.pid && e.stream === BOT)
        ? started
        : undefined;
    });
    box.fake.text("still here");
    await push(dmEnvelope({ from: ALICE, text: "again" }));
    await waitForLog(logFile, (all) =>
      all.find((e) => e.method === "send" && e.pid === second.pid),
    );

    await box.close();
    box = undefined;
    expect(entries(logFile).some((e) => e.pid === second.pid && e.stopped)).toBe(true);
    expect(alive(second.pid)).toBe(false);
  });
});
