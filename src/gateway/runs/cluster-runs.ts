// The gateway's switch between in-process runs and runs on workers: with `cluster.queue` set (read
// at start; changing it needs a restart) every run the gateway starts is published to the run queue
// (src/cluster/dispatch) instead of running here. The dispatcher module, and with it the `nats`
// client, is imported only then: a config without `cluster.queue` never loads either.

import type { ClusterDispatcher, ClusterQueueStatus } from "../../cluster/dispatch/dispatcher.js";
import type { GatewayToolHosts } from "../../cluster/dispatch/host-calls.js";
import type { ResolvedConfig } from "../../config/index.js";
import type { Logger } from "../../lib/logger.js";
import type { ClusterQueueConfig } from "../../protocol/config/cluster.js";
import type { UsageRecord } from "../../runtime/usage/usage-record.js";

/** What the run queue needs from the gateway. */
export interface ClusterRunsParams {
  logger: Logger;
  now: () => number;
  /** Logs a worker turn's usage record (the gateway's ledger). */
  onUsage?: (record: UsageRecord) => void;
  /** The cron and nodes tool hosts worker runs call (served once connected). */
  toolHosts?: GatewayToolHosts;
}

/** `status`'s view of the queue when it is not connected yet (or could not be). */
export type ClusterRunsStatus =
  | ClusterQueueStatus
  | { kind: "nats"; url: string; connected: false; error: string };

/** The run queue of a gateway whose config has `cluster.queue`. */
export class ClusterRuns {
  private opening: Promise<ClusterDispatcher> | undefined;
  private opened: ClusterDispatcher | undefined;
  private lastError = "connecting";

  private constructor(
    private readonly queue: ClusterQueueConfig,
    private readonly params: ClusterRunsParams,
  ) {}

  /** The run queue of a config, or undefined when runs stay in-process. */
  static of(config: ResolvedConfig, params: ClusterRunsParams): ClusterRuns | undefined {
    const queue = config.config.cluster?.queue;
    if (!queue) return undefined;
    if (!config.config.cluster?.store)
      params.logger.warn(
        { url: queue.url },
        "cluster.queue without cluster.store: workers keep sessions in their own state dirs (the gateway's sessions.list and chat.history will not show their turns)",
      );
    return new ClusterRuns(queue, params);
  }

  /** The connected dispatcher (connects on first call; a failure is retried on a later call). */
  dispatcher(): Promise<ClusterDispatcher> {
    this.opening ??= (async () => {
      const [{ ClusterDispatcher }, { resolveQueueSettings }] = await Promise.all([
        import("../../cluster/dispatch/dispatcher.js"),
        import("../../cluster/queue/settings.js"),
      ]);
      const settings = resolveQueueSettings(this.queue);
      const dispatcher = await ClusterDispatcher.open({ settings, ...this.params });
      this.opened = dispatcher;
      return dispatcher;
    })().catch((err: unknown) => {
      this.lastError = String(err);
      this.opening = undefined;
      this.params.logger.error(
        { url: this.queue.url, error: this.lastError },
        "run queue: cannot connect to NATS",
      );
      throw err;
    });
    return this.opening;
  }

  /** Connects in the background (at gateway start), logging a failure. */
  warm(): void {
    this.dispatcher().catch(() => undefined);
  }

  /** Resolves once a connection attempt has settled (connecting first when none is open or under
   *  way: a gateway started while NATS was down connects on the next turn). Never rejects. */
  async ready(): Promise<void> {
    if (this.opened) return;
    await this.dispatcher().catch(() => undefined);
  }

  /** Why a new turn is refused now (retryable: nothing was queued), or undefined to accept it. */
  refusal(): string | undefined {
    if (this.opened) return this.opened.refusal();
    return `run queue unavailable: cannot connect to NATS at ${this.queue.url} (${this.lastError}) — retry`;
  }

  /** The queue's status (depth per partition, connected workers). */
  async status(): Promise<ClusterRunsStatus> {
    if (!this.opened)
      return { kind: "nats", url: this.queue.url, connected: false, error: this.lastError };
    return this.opened.status();
  }

  /** Closes the connection if one was opened. */
  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    const dispatcher = await opening?.catch(() => undefined);
    await dispatcher?.close();
  }
}
