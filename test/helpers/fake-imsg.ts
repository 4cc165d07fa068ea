// A fake `imsg` for the iMessage adapter: an executable script (run by this Node) that bridges its
// stdio to a control socket here, so the test plays `imsg rpc`: it sees the argv and every JSON-RPC
// request, answers them (watch.subscribe, chats.list, send), pushes `message` notifications, and can
// drop the process (as a crash) to see the adapter restart and resume after its cursor.
import { chmodSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { makeTempDir } from "./temp-cleanup.js";

/** One JSON-RPC request the adapter sent. */
export interface FakeImsgRequest {
  id: string;
  method: string;
  params: Record<string, unknown>;
}

/** The running fake. */
export interface FakeImsg {
  /** The script to set as `cliPath`. */
  cliPath: string;
  /** argv of each start (`["rpc", "--db", …]`). */
  starts: string[][];
  requests: FakeImsgRequest[];
  /** Resolves with the nth (1-based) request of `method`. */
  waitFor(method: string, nth?: number): Promise<FakeImsgRequest>;
  /** Sends a `message` notification to the running process. */
  push(message: Record<string, unknown>): void;
  /** Ends the running process as a crash would. */
  crash(): void;
  close(): Promise<void>;
}

/** Starts the control server and writes the script. */
export async function startFakeImsg(): Promise<FakeImsg> {
  const requests: FakeImsgRequest[] = [];
  const starts: string[][] = [];
  const waiters: Array<() => void> = [];
  let current: Socket | undefined;
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const server: Server = createServer((socket) => {
    current = socket;
    let first = true;
    createInterface({ input: socket }).on("line", (line) => {
      const frame = JSON.parse(line) as {
        argv?: string[];
        id: string;
        method: string;
        params: Record<string, unknown>;
      };
      if (first) {
        first = false;
        starts.push(frame.argv ?? []);
        wake();
        return;
      }
      requests.push({ id: frame.id, method: frame.method, params: frame.params ?? {} });
      const result =
        frame.method === "watch.subscribe"
          ? { subscription: 1 }
          : frame.method === "chats.list"
            ? { chats: [] }
            : { ok: true };
      socket.write(`${JSON.stringify({ jsonrpc: "2.0", id: frame.id, result })}\n`);
      wake();
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const dir = makeTempDir("pincer-fake-imsg-");
  const cliPath = join(dir, "imsg");
  writeFileSync(
    cliPath,
    `#!${process.execPath}
const net = require("node:net");
const socket = net.connect(${port}, "127.0.0.1", () => {
  socket.write(JSON.stringify({ argv: process.argv.slice(2) }) + "\\n");
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
});
socket.on("close", () => process.exit(3));
socket.on("error", () => process.exit(4));
process.on("SIGTERM", () => process.exit(0));
`,
  );
  chmodSync(cliPath, 0o755);
  const count = (method: string) => requests.filter((r) => r.method === method);
  return {
    cliPath,
    starts,
    requests,
    async waitFor(method, nth = 1) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const found = count(method)[nth - 1];
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`fake imsg: no ${method} #${nth}; got ${JSON.stringify(requests)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    push(message) {
      current?.write(
        `${JSON.stringify({ jsonrpc: "2.0", method: "message", params: { subscription: 1, message } })}\n`,
      );
    },
    crash() {
      current?.destroy();
      current = undefined;
    },
    close: () =>
      new Promise((resolve) => {
        current?.destroy();
        server.close(() => resolve());
      }),
  };
}
