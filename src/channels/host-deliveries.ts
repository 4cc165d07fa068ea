import type { DeliveryClock } from "./delivery/delivery-clock.js";
import { type DeliveryQueue, openDeliveryQueue } from "./delivery/delivery-queue.js";
import type { DeliveryFailureRecord } from "./delivery/failure-log.js";
import { type RetryPolicy, resolveRetryPolicy } from "./delivery/send-retry.js";
import type {
  ChannelAccountConfig,
  ChannelAccountRuntime,
  Logger,
  OutboundMessage,
} from "./types.js";

/** What the delivery side needs from the host. */
export interface HostDeliveriesParams {
  stateDir: string;
  log: Logger;
  emit: (event: string, payload: unknown) => void;
  clock: DeliveryClock;
  runtimeFor: (channel: string, accountId: string) => ChannelAccountRuntime | undefined;
  accountConfig: (channel: string, accountId: string) => ChannelAccountConfig;
  /** Gateway-level policy overrides under the config's `retry` (tests shorten the backoff). */
  retry?: Partial<RetryPolicy>;
  onSent: (channel: string, message: OutboundMessage) => void;
  onFailed: (record: DeliveryFailureRecord) => void;
}

/** The queue with the host's lifecycle around it (the queue's own calls, plus `open`). */
export interface HostDeliveries extends DeliveryQueue {
  /** Opens the queue (once per start); the parts a crash cut mid-send are reported by `reportInterrupted`. */
  open(): void;
}

const NOT_STARTED = "channel host is not started: delivery queue closed";

/** Creates the delivery side (nothing is opened before `open`). */
export function createHostDeliveries(params: HostDeliveriesParams): HostDeliveries {
  let queue: DeliveryQueue | undefined;
  let open = false;
  const current = (): DeliveryQueue => {
    if (!queue) throw new Error(NOT_STARTED);
    return queue;
  };
  return {
    open() {
      if (open) return;
      queue = openDeliveryQueue({
        stateDir: params.stateDir,
        clock: params.clock,
        log: params.log,
        emit: params.emit,
        runtimeFor: params.runtimeFor,
        policyFor: (channel, accountId) =>
          resolveRetryPolicy(params.accountConfig(channel, accountId).retry, params.retry),
        onSent: (channel, message) => params.onSent(channel, message),
        onFailed: params.onFailed,
      });
      open = true;
    },
    deliver: (request) => current().deliver(request),
    covered: (key) => queue?.covered(key) ?? [],
    reportInterrupted: () => queue?.reportInterrupted(),
    resume: (channel, accountId) => queue?.resume(channel, accountId),
    entries: () => queue?.entries() ?? [],
    counts: (channel, accountId) =>
      queue?.counts(channel, accountId) ?? { queued: 0, failed: 0, uncertain: 0 },
    retry: (selector) => current().retry(selector),
    drop: (selector) => current().drop(selector),
    async stop() {
      if (!open) return;
      open = false;
      // The stopped queue stays in place: a late delivery is refused and reported, not lost silently.
      await queue?.stop();
    },
  };
}
