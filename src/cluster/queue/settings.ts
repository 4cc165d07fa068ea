// The run queue's settings with their defaults applied (protocol/config/cluster.ts): the stream of
// turns, the subjects of turns, events, results, cancels, steers and worker heartbeats, and the durable pull
// consumer of each partition.
import type { ClusterQueueConfig } from "../../protocol/config/cluster.js";

/** The resolved queue settings every side (gateway, worker, status) derives names from. */
export interface QueueSettings {
  url: string;
  stream: string;
  prefix: string;
  ackWaitMs: number;
  partitions: number;
}

/** Defaults of the `cluster.queue` keys. */
export const QUEUE_DEFAULTS = {
  stream: "PINCER_TURNS",
  prefix: "pincer",
  ackWaitMs: 30_000,
  partitions: 64,
} as const;

/** `cluster.queue` with its defaults. */
export function resolveQueueSettings(config: ClusterQueueConfig): QueueSettings {
  return {
    url: config.url,
    stream: config.stream ?? QUEUE_DEFAULTS.stream,
    prefix: config.subjectPrefix ?? QUEUE_DEFAULTS.prefix,
    ackWaitMs: config.ackWaitMs ?? QUEUE_DEFAULTS.ackWaitMs,
    partitions: config.partitions ?? QUEUE_DEFAULTS.partitions,
  };
}

/** The subject a partition's turns are published on (`<prefix>.turn.<partition>`). */
export function turnSubject(settings: QueueSettings, partition: number): string {
  return `${settings.prefix}.turn.${partition}`;
}

/** The durable pull consumer of a partition (one per partition, shared by every worker). */
export function consumerName(settings: QueueSettings, partition: number): string {
  return `${settings.stream}_p${partition}`;
}

/** Core-NATS subjects of the return path and the workers' signals. */
export function signalSubjects(settings: QueueSettings) {
  const { prefix } = settings;
  return {
    /** `<prefix>.events.<runId>`: a run's events, in order (each carries a sequence number). */
    events: (runId: string) => `${prefix}.events.${runId}`,
    eventsAll: `${prefix}.events.>`,
    /** Every run's final result. */
    results: `${prefix}.results`,
    /** `<prefix>.cancel.<runId>`: chat.abort of a queued or running turn. */
    cancel: (runId: string) => `${prefix}.cancel.${runId}`,
    cancelAll: `${prefix}.cancel.>`,
    /** `<prefix>.steer.<runId>`: a message steered into the run (a request; only the worker running
     *  it subscribes, so "no responders" means it runs nowhere now). */
    steer: (runId: string) => `${prefix}.steer.${runId}`,
    /** `<prefix>.steered.<runId>`: the worker's ack that the run took a steer. */
    steered: (runId: string) => `${prefix}.steered.${runId}`,
    steeredAll: `${prefix}.steered.>`,
    /** The gateway published a turn (workers look at once instead of at their next poll). */
    wake: `${prefix}.wake`,
    /** Each worker's heartbeat (status lists the workers seen lately). */
    workers: `${prefix}.workers`,
    /** Tool calls of worker runs that only the gateway serves (cron, nodes): request/reply. */
    host: `${prefix}.host`,
  };
}
