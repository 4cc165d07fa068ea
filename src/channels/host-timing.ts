// The channel host's timing, given once by whoever creates the host (the gateway's `channels.timing`
// option): delivery retry backoff, the delivery clock, and the restart backoff of failed accounts.
// Tests shorten or virtualize these here, in one object, instead of through each layer's params.
import type { RestartPolicy } from "./account-supervisor.js";
import type { DeliveryClock } from "./delivery/delivery-clock.js";
import type { RetryPolicy } from "./delivery/send-retry.js";

/** Timing of the channel host; every field defaults to the production value. */
export interface ChannelHostTiming {
  /** Delivery retry policy under the config's `channels.<id>.retry`. */
  retry?: Partial<RetryPolicy>;
  /** Clock of the delivery retry schedule (default: the real one, with the host's `now`). */
  deliveryClock?: DeliveryClock;
  /** Backoff of accounts restarted after a failure (default 1 s doubling to 5 min). */
  restart?: Partial<RestartPolicy>;
}
