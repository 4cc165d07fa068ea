// The pairing store as the running gateway's `device.*` methods use it: the store the handshake's
// authority writes (one instance, so changes stay serialized), whether a device has a live
// connection, and closing a device's connections once its pairing or tokens are withdrawn.
import type { DeviceStore } from "./store.js";

/** What the live-devices view needs of a gateway connection. */
export interface DeviceConnection {
  readonly state: string;
  readonly client: { deviceId?: string } | undefined;
  close(code: number, reason: string): void;
}

/** The device methods' dependency (MethodDeps `devices`). */
export interface LiveDevices {
  readonly store: DeviceStore;
  /** Whether a ready connection authenticated as this device. */
  connected(deviceId: string): boolean;
  /** Closes (1008) every connection of the device, after the current request's answer is written;
   *  returns how many will close. */
  disconnect(deviceId: string, reason: string): number;
}

/** Builds the live view over the store and the gateway's connection set. */
export function createLiveDevices(params: {
  store: DeviceStore;
  connections: () => Iterable<DeviceConnection>;
}): LiveDevices {
  const { store } = params;
  const of = (deviceId: string) =>
    [...params.connections()].filter(
      (conn) => conn.state !== "closed" && conn.client?.deviceId === deviceId,
    );
  return {
    store,
    connected: (deviceId) => of(deviceId).some((conn) => conn.state === "ready"),
    disconnect: (deviceId, reason) => {
      const doomed = of(deviceId);
      // Deferred past this loop turn: the caller may be one of them and must get its answer first.
      setImmediate(() => {
        for (const conn of doomed) conn.close(1008, reason);
      });
      return doomed.length;
    },
  };
}
