// A private nats-server (JetStream on, store in a temp dir, a free loopback port) for the cluster
// tests: started, stopped and restarted on the same port and store (a restart keeps the stream).
// Never the shared server on 4222. Missing binary: tests skip loudly, and fail under CI=true.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedPort } from "./gateway-sandbox.js";

/** Where Debian's package installs the server. */
export const NATS_SERVER_BIN = process.env.PINCER_TEST_NATS_SERVER ?? "/usr/sbin/nats-server";

/** True when the tests can run; else warns (and throws under CI=true: the tests are required). */
export function natsServerAvailable(what: string): boolean {
  if (existsSync(NATS_SERVER_BIN)) return true;
  const message = `${what}: ${NATS_SERVER_BIN} is missing (apt-get install nats-server); SKIPPING`;
  if (process.env.CI === "true") throw new Error(`${message} — required under CI`);
  console.warn(`\n*** ${message} ***\n`);
  return false;
}

/** A running private server. */
export interface NatsServer {
  url: string;
  port: number;
  storeDir: string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and store. */
  start(): Promise<void>;
  /** Stops it and removes the store. */
  close(): Promise<void>;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Starts `nats-server -js -sd <tmp> -a 127.0.0.1 -p <free port>` and waits until it accepts. */
export async function startNatsServer(): Promise<NatsServer> {
  const port = await closedPort();
  const storeDir = mkdtempSync(join(tmpdir(), "pincer-nats-"));
  let child: ChildProcess | undefined;
  let log = "";
  // One try: "ready", or "in-use" when another process holds the port (a test restarting the
  // server on its fixed port can lose it to a port-0 listener of a parallel test for a moment).
  const startOnce = async (): Promise<"ready" | "in-use"> => {
    log = "";
    const proc = spawn(
      NATS_SERVER_BIN,
      ["-js", "-sd", storeDir, "-a", "127.0.0.1", "-p", `${port}`],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    proc.stdout?.on("data", (chunk) => {
      log += chunk;
    });
    proc.stderr?.on("data", (chunk) => {
      log += chunk;
    });
    child = proc;
    for (let i = 0; i < 400; i++) {
      if (/Server is ready/.test(log) && (await portOpen(port))) return "ready";
      if (proc.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (/address already in use/.test(log)) return "in-use";
    throw new Error(`nats-server did not start: ${log.slice(-2000)}`);
  };
  const start = async () => {
    for (let attempt = 0; attempt < 40; attempt++) {
      if ((await startOnce()) === "ready") return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`nats-server did not start: port ${port} stayed in use: ${log.slice(-2000)}`);
  };
  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    proc.kill("SIGTERM");
    await exited;
    log = "";
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
