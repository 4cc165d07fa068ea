// Config keys a running process reads only at start: a reload applies everything else, logs these as
// needing a restart and reports them (config.apply/patch `restartNeeded`, the Control UI's badge).

/** The gateway's: where it listens, and the cluster engines its runs and sessions are bound to. */
export const GATEWAY_RESTART_KEYS = [
  "gateway.port",
  "gateway.bind",
  "gateway.customBindHost",
  "cluster.queue",
  "cluster.store",
] as const;

/** A worker's: the queue it pulls from and the session store it writes to. */
export const WORKER_RESTART_KEYS = ["cluster.queue", "cluster.store"] as const;
