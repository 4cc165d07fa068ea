// Sends one event to every ready connection: each variant of the frame (OpenClaw's shape, and the
// `text-deltas` ones, text-deltas.ts) is serialized once, lazily, and only each connection's own
// `seq` is appended. Events that only subscribers get (`sessions.changed`, as OpenClaw sends it to
// `sessions.subscribe` callers) skip the others, and a droppable event (a chat delta: the next
// delta or the final carries its text again) skips a connection whose outgoing buffer is above the
// slow-client bound. Nothing else is ever skipped: finals, lifecycle and agent events are queued
// (a `text-deltas` connection gets no agent assistant events), and a client past
// maxBufferedBytes is dropped (1013) by its connection as the last resort.
import type { MethodScope } from "../../protocol/gateway/index.js";
import { LazyEventFrame, type StateVersion } from "./event-frame.js";
import {
  type TextDeltaCursor,
  type TextDeltasEmit,
  type TextDeltasFrames,
  textDeltasFrames,
} from "./text-deltas.js";

/** How an event may be delivered. */
export interface EmitOptions {
  /** May be skipped for a slow client (its content is superseded by a later event of the run). */
  droppable?: boolean;
  /** What a `text-deltas` connection gets instead (absent: the same frame as every connection). */
  textDeltas?: TextDeltasEmit;
}

/** Sends an event to the connected clients. */
export type EmitEvent = (event: string, payload: unknown, options?: EmitOptions) => void;

/** Events sent only to connections that subscribed to them (`sessions.subscribe`). */
export const SUBSCRIBED_EVENTS: ReadonlySet<string> = new Set(["sessions.changed"]);

/** Events only connections holding a scope get (pairing requests name devices and addresses;
 *  approval requests name commands). */
export const EVENT_SCOPES: ReadonlyMap<string, MethodScope> = new Map([
  ["device.pair.requested", "operator.pairing"],
  ["device.pair.resolved", "operator.pairing"],
  ["exec.approval.requested", "operator.approvals"],
  ["exec.approval.resolved", "operator.approvals"],
]);

/** The only events a `role: "node"` connection gets (least privilege: a node host sees no chats). */
export const NODE_ROLE_EVENTS: ReadonlySet<string> = new Set([
  "tick",
  "shutdown",
  "node.invoke.request",
]);

/** Outgoing buffer above which a client gets no droppable events (1 MiB, or half the hard bound). */
export const SLOW_CLIENT_BYTES = 1024 * 1024;

/** An event ready to send: its variants, each serialized on first use for all its recipients. */
export interface EventFrame {
  event: string;
  /** OpenClaw's shape: what every connection without caps gets. */
  compat: LazyEventFrame;
  /** What `text-deltas` connections get (absent: `compat`). */
  textDeltas: TextDeltasFrames | undefined;
  droppable: boolean;
}

/** What the fan-out needs of a connection. */
export interface FanoutTarget {
  readonly connId: string;
  /** Sends its variant of an event frame (adds this connection's seq); false when skipped. */
  sendEventFrame(frame: EventFrame, slowClientBytes: number): boolean;
}

/** Builds the frame variants of one event, for all its recipients (serialized when first sent). */
export function serializeEvent(params: {
  event: string;
  payload: unknown;
  stateVersion?: StateVersion | undefined;
  droppable?: boolean | undefined;
  textDeltas?: TextDeltasEmit | undefined;
}): EventFrame {
  const { event, payload, stateVersion, textDeltas } = params;
  const compat = new LazyEventFrame(event, payload, stateVersion);
  return {
    event,
    compat,
    textDeltas: textDeltas ? textDeltasFrames({ event, spec: textDeltas, compat }) : undefined,
    droppable: params.droppable === true,
  };
}

/**
 * The variant of `frame` one connection gets: none when it is droppable and the connection is
 * slow, or omitted for its caps; `cursor` is set for a `text-deltas` connection.
 */
export function selectEventFrame(
  frame: EventFrame,
  connection: { cursor: TextDeltaCursor | undefined; slow: boolean },
): LazyEventFrame | undefined {
  if (frame.droppable && connection.slow) return undefined;
  if (!connection.cursor || !frame.textDeltas) return frame.compat;
  return connection.cursor.pick(frame.textDeltas);
}

/** Which connections subscribed to which subscription-only events. */
export class EventSubscriptions {
  private readonly byEvent = new Map<string, Set<string>>();

  /** Subscribes a connection to an event (idempotent). */
  subscribe(connId: string, event: string): void {
    let conns = this.byEvent.get(event);
    if (!conns) {
      conns = new Set();
      this.byEvent.set(event, conns);
    }
    conns.add(connId);
  }

  /** Unsubscribes a connection from an event (idempotent). */
  unsubscribe(connId: string, event: string): void {
    this.byEvent.get(event)?.delete(connId);
  }

  /** Forgets a closed connection. */
  drop(connId: string): void {
    for (const conns of this.byEvent.values()) conns.delete(connId);
  }

  /** True when the connection gets this event: it is not subscription-only, or it subscribed. */
  wants(connId: string, event: string): boolean {
    if (!SUBSCRIBED_EVENTS.has(event)) return true;
    return this.byEvent.get(event)?.has(connId) === true;
  }
}

/** Sends `frame` to each target that wants it; returns how many got it. */
export function fanOut(params: {
  frame: EventFrame;
  targets: Iterable<FanoutTarget>;
  subscriptions: EventSubscriptions;
  slowClientBytes: number;
}): number {
  const { frame, subscriptions, slowClientBytes } = params;
  let sent = 0;
  for (const target of params.targets) {
    if (!subscriptions.wants(target.connId, frame.event)) continue;
    if (target.sendEventFrame(frame, slowClientBytes)) sent++;
  }
  return sent;
}
