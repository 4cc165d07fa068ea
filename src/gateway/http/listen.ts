// Listening as a promise: resolves once the server accepts connections, rejects with the listen
// error (port in use, address not available) without leaving an error listener behind.
import type { Server } from "node:http";

/** Starts `server` listening on `port` at `host`. */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
