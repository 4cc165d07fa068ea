// Socket Mode for one account: Bolt's `SocketModeReceiver` opens the connection with the app-level
// token (`apps.connections.open` on the account's Web API base, then the WebSocket URL it returns).
// Its own envelope handler is replaced by one that acknowledges an `events_api` envelope only after
// the event was taken (`events.take`: journaled, synced): Bolt's would acknowledge first. An
// envelope id seen before is acknowledged at once; an event the host could not take is left
// unacknowledged so Slack delivers it again. The client does not reconnect by itself: a closed
// connection settles `ended` failed and the host's supervisor starts the account again.
import type { ChannelAccountContext, ChannelAccountEnd } from "../index.js";
import type { BoltLogger } from "./bolt-logger.js";
import type { SlackEvents } from "./events.js";
import type { SlackAccountSettings } from "./settings.js";

type SocketModeReceiverClass = typeof import("@slack/bolt").SocketModeReceiver;

/** Envelope ids remembered as acknowledged. */
const MAX_SEEN = 5000;

/** A Socket Mode connection before and after `start`. */
export interface SlackSocket {
  receiver: InstanceType<SocketModeReceiverClass>;
  start(): Promise<{ ok: true } | { ok: false; error: string }>;
  ended: Promise<ChannelAccountEnd>;
  stop(): Promise<void>;
}

interface Envelope {
  ack: (response?: Record<string, unknown>) => Promise<void>;
  envelope_id?: string;
  type?: string;
  body?: unknown;
  retry_num?: number;
}

function startError(err: unknown): string {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  const code = typeof data?.error === "string" ? data.error : undefined;
  if (code) return `slack: appToken refused by apps.connections.open (${code})`;
  return `slack: Socket Mode did not connect: ${err instanceof Error ? err.message : String(err)}`;
}

/** Builds the connection of one account (nothing opens until `start`). */
export function openSocketMode(params: {
  SocketModeReceiver: SocketModeReceiverClass;
  settings: SlackAccountSettings;
  clientOptions: Record<string, unknown>;
  logger: BoltLogger;
  events: SlackEvents;
  context: ChannelAccountContext;
}): SlackSocket {
  const { context, events } = params;
  const receiver = new params.SocketModeReceiver({
    appToken: params.settings.appToken ?? "",
    logger: params.logger as never,
    autoReconnectEnabled: false,
    installerOptions: { clientOptions: params.clientOptions },
  });
  const client = receiver.client;
  const seen = new Set<string>();
  let stopping = false;
  let settle: (end: ChannelAccountEnd) => void = () => {};
  const ended = new Promise<ChannelAccountEnd>((resolve) => {
    settle = resolve;
  });
  const ack = (envelope: Envelope) =>
    envelope.ack().catch((err: Error) => {
      context.log.warn(
        { envelopeId: envelope.envelope_id, error: err.message },
        "slack: ack failed",
      );
    });
  const onEnvelope = async (envelope: Envelope) => {
    const id = envelope.envelope_id;
    if (envelope.type !== "events_api" || (id && seen.has(id))) return ack(envelope);
    let verdict: "ack" | "retry";
    try {
      verdict = await events.take(envelope.body, envelope.retry_num);
    } catch (err) {
      context.log.error({ envelopeId: id, error: (err as Error).message }, "slack: event failed");
      return;
    }
    if (verdict !== "ack") return;
    if (id) {
      if (seen.size >= MAX_SEEN) seen.delete(seen.values().next().value as string);
      seen.add(id);
    }
    await ack(envelope);
  };
  client.removeAllListeners("slack_event");
  client.on("slack_event", (envelope: Envelope) => {
    void onEnvelope(envelope);
  });
  return {
    receiver,
    async start() {
      try {
        await client.start();
      } catch (err) {
        return { ok: false, error: startError(err) };
      }
      client.on("disconnected", () => {
        if (stopping) return settle({ failed: false });
        const error = "slack: the Socket Mode connection closed";
        context.log.warn({}, `${error}; the account restarts`);
        context.report({ connected: false, lastError: error, lastErrorAt: Date.now() });
        settle({ failed: true, error });
      });
      return { ok: true };
    },
    ended,
    async stop() {
      stopping = true;
      await client.disconnect().catch((err: Error) => {
        context.log.warn({ error: err.message }, "slack: Socket Mode disconnect failed");
      });
      settle({ failed: false });
    },
  };
}
