// The `ws` server that takes the gateway's upgrades, created on first use: `ws` is not needed to
// listen, so the gateway requires it right after it is ready (or on an upgrade that comes first).
import type { WebSocketServer } from "ws";
import { requireCommonJs } from "../../lib/require-commonjs.js";
import { MAX_PAYLOAD_BYTES } from "./handshake.js";

/** Returns a getter that builds the gateway's `noServer` WebSocketServer once, on its first call. */
export function lazyWebSocketServer(): () => WebSocketServer {
  let wss: WebSocketServer | undefined;
  return () => {
    if (wss) return wss;
    const { WebSocketServer: Server } = requireCommonJs<typeof import("ws")>("ws");
    wss = new Server({
      noServer: true,
      maxPayload: MAX_PAYLOAD_BYTES,
      perMessageDeflate: false,
      // Text frames are checked by the connection, which closes 1007 with a reason (ws: bare code).
      skipUTF8Validation: true,
    });
    return wss;
  };
}
