// `pincer status`'s run-queue lines (a gateway with `cluster.queue`): connection, queue depth per
// partition, and the workers seen lately.

/** The `cluster` section of the gateway's `status` payload (gateway/runs/cluster-runs.ts). */
export interface RemoteCluster {
  queue?: {
    url: string;
    connected: boolean;
    error?: string;
    depthError?: string;
    pending?: number;
    depth?: {
      stream: string;
      total: number;
      partitions: Record<string, number>;
      partitionCount: number;
    };
    workers?: Array<{ id: string; concurrency: number; inFlight: number; lastSeenMs: number }>;
  };
}

/** The lines of the queue section (none without a queue). */
export function clusterLines(cluster: RemoteCluster | undefined): string[] {
  const queue = cluster?.queue;
  if (!queue) return [];
  const state = queue.connected ? "connected" : `disconnected (${queue.error ?? "reconnecting"})`;
  const lines = [`Queue     ${queue.url} ${state}`];
  const depth = queue.depth;
  if (depth) {
    const busy = Object.entries(depth.partitions)
      .sort(([, a], [, b]) => b - a)
      .slice(0, 8)
      .map(([partition, count]) => `p${partition}=${count}`);
    lines.push(
      `  stream ${depth.stream}: ${depth.total} turn(s) queued or running in ${Object.keys(depth.partitions).length}/${depth.partitionCount} partition(s)${busy.length ? ` (${busy.join(" ")})` : ""}; ${queue.pending ?? 0} awaited by this gateway`,
    );
  } else if (queue.depthError) {
    lines.push(`  depth unknown: ${queue.depthError}`);
  }
  const workers = queue.workers ?? [];
  lines.push(`  workers ${workers.length}`);
  for (const worker of workers) {
    lines.push(
      `    ${worker.id}  ${worker.inFlight}/${worker.concurrency} in flight  seen ${Math.round(worker.lastSeenMs / 1000)}s ago`,
    );
  }
  return lines;
}
