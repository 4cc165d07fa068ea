// A loopback TCP proxy that adds an X-Forwarded-For header to the first request of each connection
// (a WebSocket upgrade always has its own), so the gateway sees a remote peer: no loopback
// auto-pairing, the client waits for an operator's approval as on another machine. Works for any
// client, a browser included (Chromium does not send extra HTTP headers on WebSocket upgrades).
import { createConnection, createServer, type Server } from "node:net";

/** A proxy on 127.0.0.1:0 to `target` (ws:// or http://host:port) that stamps X-Forwarded-For on the request. */
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
    url: `${new URL(target).protocol}//127.0.0.1:${address.port}`,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        // Open tunnels (the node's socket) would keep close() waiting.
        server.unref();
        done();
      }),
  };
}
