// `pincer worker`: runs turns from the run queue (cluster.queue) with this machine's runtime — the
// execution plane of a gateway that scales out. Declarations only; `run` loads on first call.
import { defineCommand, lazyRun, value } from "../command.js";

/** Options of `pincer worker`. */
export const workerOptions = {
  concurrency: value(
    "<n>",
    "turns in flight at once on this worker (default agents.defaults.maxConcurrent, else 4)",
  ),
};

/** Every `pincer worker` command. */
export const workerCommands = [
  defineCommand({
    path: ["worker"],
    description:
      "run agent turns from the gateway's run queue (NATS JetStream, cluster.queue) until stopped; sessions from cluster.store",
    options: workerOptions,
    run: lazyRun(() => import("./run.js")),
  }),
];
