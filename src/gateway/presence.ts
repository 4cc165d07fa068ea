// Presence (OpenClaw's `system-presence` list): the gateway's own row, one row per connected client (not cli / probe
// / backend modes) and system-event beacons merged by a stable key; beacons expire after 5 minutes,
// at most 200 rows, loopback IPs never shown. Every change bumps `version`.
import { hostname } from "node:os";
import { isLoopbackIp, normalizeIp } from "./net/ip-address.js";

/** One presence row (PresenceEntrySchema fields Pincer fills). */
export interface PresenceEntry {
  ts: number;
  host?: string;
  ip?: string;
  version?: string;
  platform?: string;
  deviceFamily?: string;
  modelIdentifier?: string;
  mode?: string;
  lastInputSeconds?: number;
  reason?: string;
  tags?: string[];
  text?: string;
  instanceId?: string;
  deviceId?: string;
  clientId?: string;
  roles?: string[];
  scopes?: string[];
  onlineSince?: number;
}

/** Modes that never get a row. */
const UNTRACKED_MODES = new Set(["cli", "probe", "backend"]);
/** Default staleness bound of beacon rows. */
export const PRESENCE_TTL_MS = 300_000;
/** Default row cap. */
export const PRESENCE_MAX_ENTRIES = 200;

/**
 * Whether an address is loopback: 127.0.0.0/8, ::1 in any spelling, ::ffff:127.x, or `localhost`.
 * Presence rows of loopback clients carry no ip; the handshake treats them as local.
 */
export function isLoopbackAddress(ip: string | undefined): boolean {
  if (ip?.trim().toLowerCase() === "localhost") return true;
  return isLoopbackIp(normalizeIp(ip));
}

function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function union(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  if (!a && !b) return undefined;
  return [...new Set([...(a ?? []), ...(b ?? [])])];
}

/** The presence table with an injectable clock. */
export class PresenceTable {
  private readonly rows = new Map<string, { entry: PresenceEntry; live: boolean }>();
  private readonly selfKey: string;
  private changes = 0;

  constructor(
    private readonly options: {
      now: () => number;
      version: string;
      instanceId: string;
      ttlMs?: number;
      maxEntries?: number;
    },
  ) {
    const host = hostname();
    this.selfKey = `self:${options.instanceId}`;
    const now = options.now();
    this.rows.set(this.selfKey, {
      live: true,
      entry: {
        ts: now,
        host,
        version: options.version,
        platform: process.platform,
        mode: "gateway",
        reason: "self",
        instanceId: options.instanceId,
        onlineSince: now,
        text: `Gateway: ${host} · app ${options.version} · mode gateway · reason self`,
      },
    });
  }

  /** Bumped on every change (the `presence` of stateVersion). */
  get version(): number {
    return this.changes;
  }

  /** Adds a connected client's row; false when its mode is not tracked. */
  connect(connId: string, entry: Omit<PresenceEntry, "ts">): boolean {
    if (entry.mode && UNTRACKED_MODES.has(entry.mode)) return false;
    const now = this.options.now();
    const ip = isLoopbackAddress(entry.ip) ? undefined : entry.ip;
    this.rows.set(`conn:${connId}`, {
      live: true,
      entry: defined({
        ...entry,
        ip,
        ts: now,
        onlineSince: now,
        reason: entry.reason ?? "connect",
      }),
    });
    this.enforceCap();
    this.changes++;
    return true;
  }

  /** Removes a client's row; false when it had none. */
  disconnect(connId: string): boolean {
    const removed = this.rows.delete(`conn:${connId}`);
    if (removed) this.changes++;
    return removed;
  }

  /** Merges a beacon under deviceId → instanceId → host → ip → text; returns true (always a change). */
  beacon(input: Omit<PresenceEntry, "ts">): boolean {
    const ip = isLoopbackAddress(input.ip) ? undefined : input.ip;
    const raw = input.deviceId ?? input.instanceId ?? input.host ?? ip ?? input.text?.slice(0, 64);
    const key = `beacon:${(raw ?? hostname()).toLowerCase()}`;
    const previous = this.rows.get(key)?.entry;
    const next = defined({ ...previous, ...defined({ ...input, ip }), ts: this.options.now() });
    next.roles = union(previous?.roles, input.roles);
    next.scopes = union(previous?.scopes, input.scopes);
    this.rows.set(key, { live: false, entry: defined(next) });
    this.enforceCap();
    this.changes++;
    return true;
  }

  /** Drops stale beacons; true when something was removed. */
  prune(): boolean {
    const cutoff = this.options.now() - (this.options.ttlMs ?? PRESENCE_TTL_MS);
    let removed = false;
    for (const [key, row] of this.rows) {
      if (!row.live && row.entry.ts < cutoff) {
        this.rows.delete(key);
        removed = true;
      }
    }
    if (removed) this.changes++;
    return removed;
  }

  /** Rows, newest first (the self row refreshed, stale beacons dropped). */
  list(): PresenceEntry[] {
    this.prune();
    const self = this.rows.get(this.selfKey);
    if (self) self.entry.ts = this.options.now();
    return [...this.rows.values()].map((row) => ({ ...row.entry })).sort((a, b) => b.ts - a.ts);
  }

  private enforceCap(): void {
    const max = this.options.maxEntries ?? PRESENCE_MAX_ENTRIES;
    if (this.rows.size <= max) return;
    const victims = [...this.rows.entries()]
      .filter(([key]) => key !== this.selfKey)
      .sort((a, b) => a[1].entry.ts - b[1].entry.ts);
    for (const [key] of victims.slice(0, this.rows.size - max)) this.rows.delete(key);
  }
}

/** What a connection's `connect` said about its client, as presence needs it. */
export interface ConnectedClient {
  displayName?: string;
  id: string;
  version: string;
  platform: string;
  deviceFamily?: string;
  modelIdentifier?: string;
  mode: string;
  instanceId?: string;
}

/** The presence row of a connection that completed its handshake: its client's self-description,
 *  its address, and the role and scopes the handshake granted. */
export function presenceOfConnection(params: {
  client: ConnectedClient;
  ip?: string;
  role?: string;
  scopes?: string[];
  deviceId?: string;
}): Omit<PresenceEntry, "ts"> {
  const { client } = params;
  return {
    host: client.displayName ?? client.id,
    ...(params.ip !== undefined ? { ip: params.ip } : {}),
    version: client.version,
    platform: client.platform,
    ...(client.deviceFamily ? { deviceFamily: client.deviceFamily } : {}),
    ...(client.modelIdentifier ? { modelIdentifier: client.modelIdentifier } : {}),
    mode: client.mode,
    ...(client.instanceId ? { instanceId: client.instanceId } : {}),
    clientId: client.id,
    ...(params.deviceId ? { deviceId: params.deviceId } : {}),
    roles: [params.role ?? "operator"],
    scopes: params.scopes ?? [],
  };
}
