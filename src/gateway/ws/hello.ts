// The hello-ok payload (the `connect` answer: protocol, server, features, snapshot, auth, policy)
// and the list of events this gateway emits.
import { GATEWAY_CAPS, type HelloOk } from "../../protocol/gateway/index.js";
import { buildAgentMainSessionKey, normalizeMainKey } from "../../routing/index.js";
import type { GatewayCore } from "../core.js";
import type { GatewayConnection } from "./connection.js";
import { type HandshakeAccepted, MAX_BUFFERED_BYTES, MAX_PAYLOAD_BYTES } from "./handshake.js";

/** Events this gateway emits (hello-ok features.events). */
export const GATEWAY_EVENTS = [
  "connect.challenge",
  "agent",
  "chat",
  "presence",
  "tick",
  "health",
  "shutdown",
  "sessions.changed",
  "heartbeat",
  "cron",
  "delivery.failed",
  "device.pair.requested",
  "device.pair.resolved",
  "exec.approval.requested",
  "exec.approval.resolved",
] as const;

/** Builds hello-ok for an accepted connection. */
export function buildHello(params: {
  core: GatewayCore;
  conn: GatewayConnection;
  accepted: HandshakeAccepted;
  tickIntervalMs: number;
  health: unknown;
}): HelloOk {
  const { core, conn, accepted } = params;
  const cfg = core.live.config;
  const { defaultAgentId } = core.live.resolved;
  const mainKey = normalizeMainKey(cfg.session?.mainKey);
  return {
    type: "hello-ok",
    protocol: accepted.protocol,
    server: { version: core.version, connId: conn.connId, bootId: core.bootId },
    features: {
      methods: core.methodNames(),
      events: [...GATEWAY_EVENTS],
      capabilities: [...GATEWAY_CAPS],
    },
    snapshot: {
      presence: core.presence.list(),
      health: params.health,
      stateVersion: core.stateVersion(),
      uptimeMs: core.now() - core.startedAt,
      sessionDefaults: {
        defaultAgentId,
        mainKey,
        mainSessionKey: buildAgentMainSessionKey({ agentId: defaultAgentId, mainKey }),
        scope: cfg.session?.scope ?? "per-sender",
      },
      configPath: core.live.loaded.path,
      stateDir: core.paths.stateDir,
      authMode: core.authMode,
    },
    auth: {
      method: accepted.method,
      role: accepted.role,
      scopes: accepted.scopes,
      ...(accepted.deviceToken ? { deviceToken: accepted.deviceToken } : {}),
      ...(accepted.issuedAtMs !== undefined ? { issuedAtMs: accepted.issuedAtMs } : {}),
    },
    policy: {
      maxPayload: MAX_PAYLOAD_BYTES,
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      tickIntervalMs: params.tickIntervalMs,
    },
  };
}
