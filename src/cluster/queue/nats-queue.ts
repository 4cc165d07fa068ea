// The NATS side of the run queue, shared by the gateway and the workers. The `nats` client is
// imported only here, and only when `connectQueue` runs (a config without `cluster.queue` never
// loads it).
//
// Design: one JetStream stream (work-queue retention, file storage) holds every turn on
// `<prefix>.turn.<partition>`, partition = FNV-1a(sessionKey) % partitions. Each partition has ONE
// durable pull consumer, shared by all workers, with MaxAckPending = 1: the server hands out a
// partition's next turn only once the previous one is acked, so a session's turns never run
// concurrently or out of order, whatever the number of workers (sessions that share a partition
// also wait for each other: more partitions, less of that). A worker's death leaves its turn
// unacked; after AckWait the server redelivers it to whoever pulls next. Work-queue retention needs
// consumers with disjoint filters, which one-consumer-per-partition gives. Only features of
// nats-server 2.9 are used (single-filter consumers, `CONSUMER.MSG.NEXT` pulls, in-progress acks,
// stream info with `subjects_filter`, publish dedupe by `Nats-Msg-Id`).
import type { JetStreamClient, JetStreamManager, JsMsg, NatsConnection } from "nats";
import type { Logger } from "../../lib/logger.js";
import { consumerName, type QueueSettings, turnSubject } from "./settings.js";
import { encode, type TurnMessage } from "./wire.js";

type NatsModule = typeof import("nats");

/** Inputs of {@link connectQueue}. */
export interface ConnectQueueParams {
  settings: QueueSettings;
  /** The connection's name on the server (`pincer-gateway`, `pincer-worker-<host>-<pid>`). */
  name: string;
  logger: Logger;
  /** Called on every disconnect and reconnect (the gateway republishes its pending turns). */
  onStatus?: (status: "disconnect" | "reconnect") => void;
}

/** Queue depth: turns waiting or in flight, per partition (only non-empty ones) and in total. */
export interface QueueDepth {
  stream: string;
  total: number;
  partitions: Record<string, number>;
  partitionCount: number;
}

/** Handler of a core-NATS subscription; `respond` answers a request (absent on a plain publish). */
export type OnMessage = (
  data: Uint8Array,
  subject: string,
  respond?: (value: unknown) => void,
) => void;

/** A request's answer, or why there is none: nobody subscribes to the subject ("no-responders"), no
 *  answer in time ("timeout": it may still have been taken), or it could not be sent ("error"). */
export type RequestOutcome =
  | { ok: true; data: Uint8Array }
  | { ok: false; reason: "no-responders" | "timeout" | "error"; error: string };

/** Pull errors that only mean "nothing for you now" (no message, timeout, max ack pending). */
const EMPTY_PULL = /no messages|timeout|408|404|409|exceeded maxackpending/i;

/** A connected run queue. */
export class NatsQueue {
  private up = true;

  private constructor(
    private readonly nats: NatsModule,
    readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    readonly settings: QueueSettings,
  ) {}

  /** Connects (retrying for ever once connected; the first connect fails fast) and watches status. */
  static async open(params: ConnectQueueParams): Promise<NatsQueue> {
    const nats = await import("nats");
    const nc = await nats.connect({
      servers: params.settings.url.split(",").map((url) => url.trim()),
      name: params.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      timeout: 5000,
    });
    const jsm = await nc.jetstreamManager();
    const queue = new NatsQueue(nats, nc, nc.jetstream(), jsm, params.settings);
    void queue.watch(params);
    return queue;
  }

  private async watch(params: ConnectQueueParams): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === this.nats.Events.Disconnect) {
        this.up = false;
        params.logger.warn({ url: this.settings.url }, "run queue: NATS disconnected");
        params.onStatus?.("disconnect");
      } else if (status.type === this.nats.Events.Reconnect) {
        this.up = true;
        params.logger.info({ url: this.settings.url }, "run queue: NATS reconnected");
        params.onStatus?.("reconnect");
      }
    }
  }

  /** False while the client is disconnected (it reconnects on its own). */
  get connected(): boolean {
    return this.up && !this.nc.isClosed();
  }

  /** Creates the stream and the partitions' consumers when missing (idempotent; the gateway and
   *  every worker call it at start, whoever comes first creates them). */
  async ensureTopology(): Promise<void> {
    const { nats, jsm, settings } = this;
    const subjects = [`${settings.prefix}.turn.*`];
    try {
      await jsm.streams.info(settings.stream);
    } catch (err) {
      if (!/stream not found/i.test(String(err))) throw err;
      await jsm.streams.add({
        name: settings.stream,
        subjects,
        retention: nats.RetentionPolicy.Workqueue,
        storage: nats.StorageType.File,
        // Publish dedupe on the run id: a gateway retry of the same turn is stored once.
        duplicate_window: nats.nanos(120_000),
      });
    }
    const existing = new Set<string>();
    for await (const info of jsm.consumers.list(settings.stream)) existing.add(info.name);
    const config = (partition: number) => ({
      durable_name: consumerName(settings, partition),
      ack_policy: nats.AckPolicy.Explicit,
      deliver_policy: nats.DeliverPolicy.All,
      ack_wait: nats.nanos(settings.ackWaitMs),
      max_ack_pending: 1,
      filter_subject: turnSubject(settings, partition),
    });
    for (let partition = 0; partition < settings.partitions; partition++) {
      const name = consumerName(settings, partition);
      if (existing.has(name)) await jsm.consumers.update(settings.stream, name, config(partition));
      else await jsm.consumers.add(settings.stream, config(partition));
    }
  }

  /** Publishes a turn on its partition and waits for the stream's ack. `attempt` > 0 republishes
   *  (a new dedupe id: the gateway re-sends pending turns after a reconnect). */
  async publishTurn(params: { turn: TurnMessage; partition: number; attempt: number }) {
    const { turn, partition, attempt } = params;
    const msgID = attempt > 0 ? `${turn.runId}#${attempt}` : turn.runId;
    return this.js.publish(turnSubject(this.settings, partition), encode(turn), { msgID });
  }

  /** The next turn of a partition now, or undefined when it has none for us (empty, or its one
   *  turn in flight elsewhere). Other errors are thrown. */
  async pull(partition: number): Promise<JsMsg | undefined> {
    try {
      return await this.js.pull(this.settings.stream, consumerName(this.settings, partition));
    } catch (err) {
      if (EMPTY_PULL.test(String((err as Error).message ?? err))) return undefined;
      throw err;
    }
  }

  /** Turns stored per partition (waiting or in flight; acked ones are gone: work-queue). */
  async depth(): Promise<QueueDepth> {
    const { settings } = this;
    const info = await this.jsm.streams.info(settings.stream, {
      subjects_filter: `${settings.prefix}.turn.*`,
    });
    const partitions: Record<string, number> = {};
    for (const [subject, count] of Object.entries(info.state.subjects ?? {})) {
      const partition = subject.slice(subject.lastIndexOf(".") + 1);
      partitions[partition] = count;
    }
    return {
      stream: settings.stream,
      total: info.state.messages,
      partitions,
      partitionCount: settings.partitions,
    };
  }

  /** Publishes a core-NATS message (buffered by the client while it reconnects). */
  publish(subject: string, value: unknown): void {
    this.nc.publish(subject, encode(value));
  }

  /** A core-NATS request (nats-server 2.9: no-responders status, mux inbox); never throws. A message
   *  over the server's max_payload is an "error". */
  async request(subject: string, value: unknown, timeoutMs: number): Promise<RequestOutcome> {
    const { ErrorCode } = this.nats;
    try {
      const msg = await this.nc.request(subject, encode(value), { timeout: timeoutMs });
      return { ok: true, data: msg.data };
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const error = String((err as Error).message ?? err);
      if (code === ErrorCode.NoResponders) return { ok: false, reason: "no-responders", error };
      if (code === ErrorCode.Timeout) return { ok: false, reason: "timeout", error };
      return { ok: false, reason: "error", error };
    }
  }

  /** Subscribes to a core-NATS subject; returns the unsubscribe. A throwing handler is logged. */
  subscribe(subject: string, handler: OnMessage, logger: Logger): () => void {
    const sub = this.nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) {
          logger.warn({ subject, error: String(err) }, "run queue subscription error");
          return;
        }
        try {
          const reply = msg.reply;
          const respond = reply
            ? (value: unknown) => this.nc.publish(reply, encode(value))
            : undefined;
          handler(msg.data, msg.subject, respond);
        } catch (error) {
          logger.error({ subject, error: String(error) }, "run queue message handler failed");
        }
      },
    });
    return () => sub.unsubscribe();
  }

  /** Sends what is buffered and waits for the server to have it. */
  flush(): Promise<void> {
    return this.nc.flush();
  }

  /** Drains and closes the connection (errors logged: closing must not throw). */
  async close(logger: Logger): Promise<void> {
    if (this.nc.isClosed()) return;
    try {
      await this.nc.drain();
    } catch (err) {
      logger.debug({ error: String(err) }, "run queue: drain failed; closing");
      await this.nc.close();
    }
  }
}
