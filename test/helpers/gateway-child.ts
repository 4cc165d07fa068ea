// Built gateway processes for crash tests: start one (`pincer gateway run --port 0`, wait for its
// ws:// URL and an optional readiness check), kill -9 it, stop it with SIGTERM, and kill whatever a
// test left running; plus a bounded poll and a connected WS client. Run `npm run build` first.
import { connectParams, openClient, spawnGateway, type TestClient } from "./gateway-sandbox.js";

/** A running gateway child process and its WS URL. */
export type GatewayChild = ReturnType<typeof spawnGateway> & { url: string };

/** Polls `check` every 10 ms until it holds; throws naming `what` after `ms` (default 20 s). */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 20_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Opens a client on `url` and completes the handshake (throws if refused). */
export async function connectedClient(url: string): Promise<TestClient> {
  const client = await openClient(url);
  const hello = await client.request("connect", connectParams());
  if (!hello.ok) throw new Error(`connect refused: ${JSON.stringify(hello.error)}`);
  return client;
}

/** Starts, kills and stops gateway children of one test; `killAll` in `afterEach`. */
export interface GatewayChildren {
  /** Spawns a gateway over `env`; resolves once its URL is out and `ready` (if given) holds. */
  start(
    env: Record<string, string>,
    ready?: () => boolean | Promise<boolean>,
  ): Promise<GatewayChild>;
  /** kill -9, then waits for the exit. */
  kill(gw: GatewayChild): Promise<void>;
  /** SIGTERM (a clean shutdown), then waits for the exit; resolves with the exit code. */
  stop(gw: GatewayChild): Promise<number | null>;
  /** kill -9 of every child still running; resolves once they exited. */
  killAll(): Promise<void>;
}

/** A registry of the gateway children a test starts. */
export function gatewayChildren(): GatewayChildren {
  const live = new Set<GatewayChild>();
  const end = async (gw: GatewayChild, signal: NodeJS.Signals) => {
    gw.child.kill(signal);
    const code = await gw.exited;
    live.delete(gw);
    return code;
  };
  return {
    async start(env, ready) {
      const proc = spawnGateway(["run", "--port", "0"], env);
      const url = await proc.waitForUrl();
      const gw = Object.assign(proc, { url: url ?? "" });
      live.add(gw);
      if (!url) throw new Error(`gateway did not start: ${proc.out}`);
      if (ready) await waitUntil(ready, "the gateway to be ready");
      return gw;
    },
    kill: async (gw) => {
      await end(gw, "SIGKILL");
    },
    stop: (gw) => end(gw, "SIGTERM"),
    async killAll() {
      await Promise.all([...live].map((gw) => end(gw, "SIGKILL")));
    },
  };
}
