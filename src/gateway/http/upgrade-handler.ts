// The server's `upgrade` listener: refuses upgrades while shutting down and those the upgrade guard
// refuses (HTTP 403/400 with the reason as body, logged), then hands the socket to `ws` with the
// client's address and whether it is local. The guard is rebuilt when the live config changes.
import type { IncomingMessage } from "node:http";
import { hostname } from "node:os";
import type { Duplex } from "node:stream";
import type { WebSocket, WebSocketServer } from "ws";
import type { Logger } from "../../lib/logger.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { createUpgradeGuard, type UpgradeGuard, upgradeRefusalResponse } from "./upgrade-guard.js";

/** Inputs of {@link createUpgradeHandler}. */
export interface UpgradeHandlerParams {
  /** The server that takes accepted upgrades (built on first use). */
  wss: () => WebSocketServer;
  /** The current config (read at each upgrade; the guard is rebuilt when it changes). */
  config: () => OpenClawConfig;
  /** The address the server listens on. */
  listenHost: () => string;
  /** False once shutdown began (upgrades then answer 503). */
  accepting: () => boolean;
  logger: Logger;
  /** A socket the guard let in: its client address, whether it counts as loopback, and the
   *  upgraded socket under `ws` (the connection meters its frames). */
  onSocket: (
    ws: WebSocket,
    client: { remoteAddress: string; isLoopback: boolean; socket: Duplex },
  ) => void;
}

/** Builds the `server.on("upgrade", …)` listener. */
export function createUpgradeHandler(
  params: UpgradeHandlerParams,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const { logger } = params;
  let cached: { config: OpenClawConfig; guard: UpgradeGuard } | undefined;
  const guardFor = (config: OpenClawConfig): UpgradeGuard => {
    if (cached?.config === config) return cached.guard;
    const gateway = config.gateway;
    const machine = hostname();
    const guard = createUpgradeGuard({
      listenHost: params.listenHost(),
      allowedOrigins: gateway?.controlUi?.allowedOrigins ?? [],
      ...(gateway?.publicOrigin ? { publicOrigin: gateway.publicOrigin } : {}),
      trustedProxies: gateway?.trustedProxies ?? [],
      allowRealIpFallback: gateway?.allowRealIpFallback === true,
      machineNames: [machine, `${machine}.local`],
    });
    for (const issue of guard.configIssues) logger.warn(issue);
    cached = { config, guard };
    return guard;
  };
  return (req, socket, head) => {
    socket.on("error", (err) => logger.debug({ error: String(err) }, "upgrade socket error"));
    if (!params.accepting()) {
      socket.end(upgradeRefusalResponse(503, "gateway shutting down"));
      return;
    }
    const peer = req.socket.remoteAddress ?? "";
    const verdict = guardFor(params.config()).check({ peerAddress: peer, headers: req.headers });
    for (const note of verdict.notes) logger.warn({ peer }, `upgrade: ${note}`);
    if (!verdict.ok) {
      logger.warn(
        {
          peer,
          status: verdict.status,
          reason: verdict.reason,
          origin: req.headers.origin,
          host: req.headers.host,
        },
        "upgrade refused",
      );
      socket.end(upgradeRefusalResponse(verdict.status, verdict.reason));
      return;
    }
    params.wss().handleUpgrade(req, socket, head, (ws) =>
      params.onSocket(ws, {
        remoteAddress: verdict.clientAddress,
        isLoopback: verdict.isLoopback,
        socket,
      }),
    );
  };
}
