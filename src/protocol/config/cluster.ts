// `cluster`: Pincer's own key (OpenClaw has none) selecting the engines that let turns run on workers
// and sessions live off the gateway's disk. Without it everything runs in one process on files.
import { type Static, Type } from "typebox";

/** The run queue: NATS JetStream (turns partitioned by session key, events and results back). */
export const ClusterQueueConfigSchema = Type.Object(
  {
    kind: Type.Literal("nats", { description: "Queue engine: NATS JetStream (server >= 2.9)." }),
    url: Type.String({
      minLength: 1,
      description: "NATS server URL(s), comma-separated (nats://host:4222).",
    }),
    stream: Type.Optional(
      Type.String({
        pattern: "^[A-Za-z0-9_-]+$",
        description: "JetStream stream of turns (default PINCER_TURNS).",
      }),
    ),
    subjectPrefix: Type.Optional(
      Type.String({
        pattern: "^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$",
        description: "Subject prefix of turns, events and results (default pincer).",
      }),
    ),
    ackWaitMs: Type.Optional(
      Type.Integer({
        minimum: 1000,
        description: "How long a turn may run unacknowledged before redelivery (default 30000).",
      }),
    ),
    partitions: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1024,
        description: "Session partitions: one turn in flight per partition (default 64).",
      }),
    ),
  },
  { additionalProperties: false, description: "Where turns are queued for workers." },
);
/** Static type of {@link ClusterQueueConfigSchema}. */
export type ClusterQueueConfig = Static<typeof ClusterQueueConfigSchema>;

/** The session store: PostgreSQL (index, transcripts, pairing and device stores). */
export const ClusterStoreConfigSchema = Type.Object(
  {
    kind: Type.Literal("postgres", { description: "Store engine: PostgreSQL (>= 13)." }),
    url: Type.String({ minLength: 1, description: "postgres://user:pass@host:5432/db" }),
    schema: Type.Optional(
      Type.String({
        pattern: "^[a-z_][a-z0-9_]*$",
        description: "Database schema of Pincer's tables (default pincer).",
      }),
    ),
    maxConnections: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: "Pool size (default 10)." }),
    ),
    connectTimeoutMs: Type.Optional(
      Type.Integer({ minimum: 100, description: "Connect timeout (default 10000)." }),
    ),
  },
  { additionalProperties: false, description: "Where sessions are stored." },
);
/** Static type of {@link ClusterStoreConfigSchema}. */
export type ClusterStoreConfig = Static<typeof ClusterStoreConfigSchema>;

/** `cluster`: the engines of a gateway with workers; absent = one process, files on disk. */
export const ClusterConfigSchema = Type.Object(
  {
    queue: Type.Optional(ClusterQueueConfigSchema),
    store: Type.Optional(ClusterStoreConfigSchema),
  },
  { additionalProperties: false, description: "Run queue and session store of a cluster." },
);
/** Static type of {@link ClusterConfigSchema}. */
export type ClusterConfig = Static<typeof ClusterConfigSchema>;
