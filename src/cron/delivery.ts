// Where a cron run's reply goes, and sending it: `delivery.channel` + `delivery.to`, or the `last`
// route (channel "last" or none given): where the job's origin session (the chat that created it
// with the cron tool) last talked, else the agent's main session. Sent through the channel host's
// `send` (the same delivery path as every reply); a missing target or a failed send is a value.
import type { SessionEntry } from "../sessions/types.js";
import type { CronDelivery } from "./types.js";

/** A resolved delivery target. */
export interface DeliveryTarget {
  channel: string;
  to: string;
  accountId?: string;
  threadId?: string;
}

/** A session's last route, as the session store keeps it. */
type RouteFields = Pick<SessionEntry, "lastChannel" | "lastTo" | "lastAccountId" | "lastThreadId">;

function routeOf(entry: RouteFields | undefined, channel?: string): DeliveryTarget | undefined {
  if (!entry?.lastChannel || !entry.lastTo) return undefined;
  if (channel && channel !== entry.lastChannel) return undefined;
  return {
    channel: entry.lastChannel,
    to: entry.lastTo,
    ...(entry.lastAccountId ? { accountId: entry.lastAccountId } : {}),
    ...(entry.lastThreadId !== undefined ? { threadId: String(entry.lastThreadId) } : {}),
  };
}

/** The target of an announce: explicit channel + to, or a last route; an error says what is missing. */
export function resolveDeliveryTarget(params: {
  delivery: CronDelivery | undefined;
  /** The sessions to take a last route from, in order (origin session, then main session). */
  routes: Array<RouteFields | undefined>;
}): DeliveryTarget | { error: string } {
  const delivery = params.delivery;
  const channel = delivery?.channel && delivery.channel !== "last" ? delivery.channel : undefined;
  const to = delivery?.to?.trim();
  const accountId = delivery?.accountId ? { accountId: delivery.accountId } : {};
  if (channel && to) return { channel, to, ...accountId };
  for (const entry of params.routes) {
    const route = routeOf(entry, channel);
    if (route) return { ...route, ...(to ? { to } : {}), ...accountId };
  }
  return {
    error: channel
      ? `no delivery target: delivery.channel "${channel}" needs delivery.to (no chat on it has talked to this agent)`
      : "no delivery target: set delivery.channel and delivery.to, or talk to the agent on a channel first (the last route)",
  };
}
