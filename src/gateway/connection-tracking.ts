// What the gateway does when a connection becomes ready or closes: its presence row (coalesced
// `presence` event), a node host's entry in the node registry (and its in-flight invokes ended when
// it goes), and its event subscriptions dropped.
import type { EventSubscriptions } from "./events/event-fanout.js";
import type { NodeRegistry } from "./nodes/node-registry.js";
import { type PresenceTable, presenceOfConnection } from "./presence.js";
import type { ConnectionHost, GatewayConnection } from "./ws/connection.js";

/** The `onReady` / `onClose` of the connection host over the gateway's tables. */
export function trackConnections(params: {
  connections: Set<GatewayConnection>;
  presence: PresenceTable;
  presenceChanged: () => void;
  subscriptions: EventSubscriptions;
  nodes: NodeRegistry;
}): Pick<ConnectionHost, "onReady" | "onClose"> {
  const { connections, presence, presenceChanged, subscriptions, nodes } = params;
  return {
    onReady: (conn, p) => {
      const client = conn.client;
      const entry = presenceOfConnection({
        client: p.client,
        ip: conn.remoteAddress,
        ...(client?.role ? { role: client.role } : {}),
        ...(client?.scopes ? { scopes: client.scopes } : {}),
        ...(client?.deviceId ? { deviceId: client.deviceId } : {}),
      });
      if (presence.connect(conn.connId, entry)) presenceChanged();
      if (client?.role === "node") {
        nodes.register({
          conn,
          connect: p,
          ...(client.deviceId ? { deviceId: client.deviceId } : {}),
        });
      }
    },
    onClose: (conn) => {
      connections.delete(conn);
      subscriptions.drop(conn.connId);
      if (presence.disconnect(conn.connId)) presenceChanged();
      nodes.unregister(conn.connId);
    },
  };
}
