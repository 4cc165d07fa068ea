// A real node host for e2e tests: `pincer node run` from the built dist as a child process with its
// own temp home and state dir (never the gateway's), its stdout collected; and a loopback TCP proxy
// that adds an X-Forwarded-For header to the upgrade, so the gateway sees a remote node (no
// loopback auto-pairing: the node waits for an operator's approval, as on another machine).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pincerBin = join(
  root,
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.pincer,
);

/** A running node host process. */
export interface NodeHostProcess {
  child: ChildProcess;
  home: string;
  stateDir: string;
  /** Everything it printed so far. */
  out(): string;
  /** Polls its output (default 20 s) until `pattern` appears; returns the match. */
  waitForOutput(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
  /** SIGKILL (if still running) and removes its temp home. */
  kill(): Promise<void>;
}

/** Spawns `pincer node run <args>` with a fresh home and state dir. */
export function spawnNodeHost(args: string[]): NodeHostProcess {
  const home = mkdtempSync(join(tmpdir(), "pincer-node-"));
  const stateDir = join(home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  const child = spawn(process.execPath, [pincerBin, "node", "run", ...args], {
    env: { PATH: process.env.PATH, HOME: home, OPENCLAW_STATE_DIR: stateDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    out += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    child,
    home,
    stateDir,
    out: () => out,
    exited,
    async waitForOutput(pattern, ms = 20_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const match = pattern.exec(out);
        if (match) return match;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`node host output never matched ${pattern}:\n${out}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A proxy on 127.0.0.1:0 to `target` (ws://host:port) that stamps X-Forwarded-For on the request. */
export async function startForwardingProxy(
  target: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const server: Server = createServer((downstream) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      downstream.off("data", onData);
      const firstLine = head.indexOf("\r\n");
      const stamped = Buffer.concat([
        head.subarray(0, firstLine + 2),
        Buffer.from("X-Forwarded-For: 203.0.113.9\r\n"),
        head.subarray(firstLine + 2),
      ]);
      const upstream = createConnection({ host: hostname, port: Number(port) }, () => {
        upstream.write(stamped);
        downstream.pipe(upstream);
        upstream.pipe(downstream);
      });
      upstream.on("error", () => downstream.destroy());
      upstream.on("close", () => downstream.destroy());
      downstream.on("close", () => upstream.destroy());
    };
    downstream.on("data", onData);
    downstream.on("error", () => downstream.destroy());
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        // Open tunnels (the node's socket) would keep close() waiting.
        server.unref();
        done();
      }),
  };
}
