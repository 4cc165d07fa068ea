// Channel methods: channels.status (live per-account status; `probe: true` asks each account),
// send (through the channels' delivery path, idempotent by idempotencyKey), the DM pairing
// queue (channels.pairing.list / approve / dismiss), which reads and writes the same store as the CLI,
// and the delivery queue's dead letters (channels.failures.list / retry / drop).
import { channelSection, configuredChannelIds } from "../../channels/account-config.js";
import { totalDeliveries } from "../../channels/account-status.js";
import { withAdapterlessChannels } from "../../channels/adapterless.js";
import {
  type EntrySelector,
  listDeliveryEntries,
} from "../../channels/delivery/delivery-entries.js";
import type { EntryActionResult } from "../../channels/delivery/delivery-queue.js";
import { readDeliveryState } from "../../channels/delivery/delivery-store.js";
import { ErrorCodes, type GatewayErrorShape, gatewayError } from "../../protocol/gateway/index.js";
import { type CallOf, defineMethod, fail, type MethodCall, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";
import { invalid } from "./shared.js";

type QueueDeps = Pick<MethodDeps, "channels" | "stateDir" | "now">;

async function status(call: CallOf<"channels.status">, deps: QueueDeps & Pick<MethodDeps, "live">) {
  const host = deps.channels.host;
  const cfg = deps.live.config;
  const registry = deps.channels.registry;
  const running = host ? await host.status({ probe: call.params.probe === true }) : undefined;
  // No host yet: the configured channels that have an adapter, not started.
  const ids = configuredChannelIds(cfg).filter((id) => registry.has(id));
  const base = running ?? {
    ts: deps.now(),
    channelOrder: ids,
    channelLabels: Object.fromEntries(ids.map((id) => [id, id])),
    channels: Object.fromEntries(
      ids.map((id) => [id, { configured: false, running: false, accounts: 0 }]),
    ),
    channelAccounts: Object.fromEntries(
      ids.map((id) => [
        id,
        [
          {
            accountId: "default",
            enabled: channelSection(cfg, id).enabled !== false,
            configured: false,
            running: false,
            connected: false,
            restarts: 0,
            pendingDeliveries: 0,
            queuedDeliveries: 0,
            failedDeliveries: 0,
            uncertainDeliveries: 0,
            lastError: "channel host not started",
          },
        ],
      ]),
    ),
    // The queue file is still there to count (nothing is sending from it).
    deliveries: totalDeliveries(listDeliveryEntries(readDeliveryState(deps.stateDir).state)),
  };
  // Channels without an adapter: listed as such, with every configured account.
  return ok(withAdapterlessChannels(base, { cfg, hasAdapter: (id) => registry.has(id) }));
}

async function send(call: CallOf<"send">, deps: Pick<MethodDeps, "dedupe" | "channels">) {
  const { params } = call;
  const dedupeKey = `send:${params.idempotencyKey}`;
  const seen = deps.dedupe.get(dedupeKey);
  if (seen?.state === "done") {
    const error = seen.final.error as GatewayErrorShape | undefined;
    return error ? fail(error) : ok(seen.final);
  }
  if (seen?.state === "in_flight")
    return ok({ status: "in_flight", idempotencyKey: params.idempotencyKey });
  const host = deps.channels.host;
  if (!host) return invalid("Channel is required (no configured channels detected)");
  deps.dedupe.begin(dedupeKey, { runId: params.idempotencyKey });
  const mediaUrls = [...(params.mediaUrl ? [params.mediaUrl] : []), ...(params.mediaUrls ?? [])];
  const result = await host.send({
    to: params.to,
    ...(params.message !== undefined ? { message: params.message } : {}),
    ...(params.channel ? { channel: params.channel } : {}),
    ...(params.accountId ? { accountId: params.accountId } : {}),
    ...(params.threadId ? { threadId: params.threadId } : {}),
    ...(params.replyToId ? { replyToId: params.replyToId } : {}),
    ...(mediaUrls.length ? { mediaUrls } : {}),
  });
  if (!result.ok) {
    // The failure is recorded (failure log + delivery.failed) and remembered under the key: a
    // repeat of the same request answers the same error instead of sending again.
    const code = result.kind === "invalid" ? ErrorCodes.INVALID_REQUEST : ErrorCodes.UNAVAILABLE;
    const error = gatewayError(code, result.error);
    deps.dedupe.finish(dedupeKey, { error });
    return fail(error);
  }
  const payload = {
    runId: params.idempotencyKey,
    messageId: result.messageId,
    messageIds: result.messageIds,
    channel: result.channel,
    accountId: result.accountId,
    to: result.to,
    ...(result.queued ? { queued: result.queued } : {}),
  };
  deps.dedupe.finish(dedupeKey, payload);
  return ok(payload);
}

function failuresList(_call: MethodCall<unknown>, deps: QueueDeps) {
  const host = deps.channels.host;
  // Without a running host the queue file is still there to read (nothing is sending from it).
  const entries = host
    ? host.failures.list()
    : listDeliveryEntries(readDeliveryState(deps.stateDir).state);
  return ok({ ts: deps.now(), entries });
}

function failuresAction(action: "retry" | "drop") {
  return (call: MethodCall<EntrySelector>, deps: Pick<MethodDeps, "channels">) => {
    const { ids, all } = call.params;
    if (!all && !ids?.length) return invalid("ids or all is required");
    const host = deps.channels.host;
    if (!host)
      return fail(gatewayError(ErrorCodes.UNAVAILABLE, "no channel is running: start one first"));
    const selector = all ? { all: true } : { ids: ids ?? [] };
    const result: EntryActionResult = host.failures[action](selector);
    if (!result.ok) {
      const named = result.refused.map((r) => `${r.id} (${r.reason})`).join(", ");
      return fail(
        gatewayError(ErrorCodes.INVALID_REQUEST, `cannot ${action}: ${named}`, {
          details: { refused: result.refused },
        }),
      );
    }
    return ok(action === "retry" ? { requeued: result.ids } : { dropped: result.ids });
  };
}

type PairingDeps = Pick<MethodDeps, "channels">;
const PAIRING_USES = ["channels"] as const;

function pairingStore(deps: PairingDeps) {
  return deps.channels.pairing();
}

function pairingApprove(call: CallOf<"channels.pairing.approve">, deps: PairingDeps) {
  const approved = pairingStore(deps).approve(call.params.channel, call.params.code);
  if (!approved) return invalid(`unknown or expired pairing code ${call.params.code}`);
  return ok({
    approved: true,
    channel: call.params.channel,
    id: approved.id,
    accountId: approved.meta.accountId,
  });
}

function pairingDismiss(call: CallOf<"channels.pairing.dismiss">, deps: PairingDeps) {
  const dropped = pairingStore(deps).reject(call.params.channel, call.params.code);
  if (!dropped) return invalid(`unknown or expired pairing code ${call.params.code}`);
  return ok({ dismissed: true, channel: call.params.channel, id: dropped.id });
}

/** The channel method group. */
export const channelMethods = [
  defineMethod({
    name: "channels.status",
    scope: "operator.read",
    uses: ["channels", "stateDir", "now", "live"],
    handler: status,
  }),
  defineMethod({
    name: "send",
    scope: "operator.write",
    uses: ["dedupe", "channels"],
    handler: send,
  }),
  defineMethod({
    name: "channels.failures.list",
    scope: "operator.read",
    uses: ["channels", "stateDir", "now"],
    handler: failuresList,
  }),
  defineMethod({
    name: "channels.failures.retry",
    scope: "operator.write",
    uses: ["channels"],
    handler: failuresAction("retry"),
  }),
  defineMethod({
    name: "channels.failures.drop",
    scope: "operator.write",
    uses: ["channels"],
    handler: failuresAction("drop"),
  }),
  defineMethod({
    name: "channels.pairing.list",
    scope: "operator.read",
    uses: PAIRING_USES,
    handler: (call, deps) => ok({ requests: pairingStore(deps).list(call.params.channel) }),
  }),
  // Approving or dismissing decides who may talk to an agent: operator.admin.
  defineMethod({
    name: "channels.pairing.approve",
    scope: "operator.admin",
    uses: PAIRING_USES,
    handler: pairingApprove,
  }),
  defineMethod({
    name: "channels.pairing.dismiss",
    scope: "operator.admin",
    uses: PAIRING_USES,
    handler: pairingDismiss,
  }),
];
