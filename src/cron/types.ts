// The cron job as jobs.json stores it (OpenClaw's shape: `{version: 1, jobs: [...]}`), a run's
// outcome and its run-log line. The schedule, payload and delivery shapes are the protocol's
// (src/protocol/gateway/cron.ts), so a job added over the gateway is stored as it was given.
import type {
  CronDelivery,
  CronJobState,
  CronPayload,
  CronSchedule,
} from "../protocol/gateway/cron.js";

export type { CronDelivery, CronJobState, CronPayload, CronSchedule };

/** `main` (a system event into the agent's main session) or `isolated` (`cron:<jobId>`). */
export type CronSessionTarget = "main" | "isolated";
/** Whether a main-session event runs a turn at once (`now`) or waits for the next heartbeat. */
export type CronWakeMode = "now" | "next-heartbeat";
/** How a run ended. */
export type CronRunStatus = "ok" | "error" | "skipped";
/** Whether the run's reply reached its delivery target. */
export type CronDeliveryStatus = "delivered" | "not-delivered" | "unknown" | "not-requested";

/** One job of jobs.json. */
export interface CronJob {
  id: string;
  agentId?: string;
  /** The session that created the job (the cron tool): its chat is where a reminder goes back to. */
  sessionKey?: string;
  name: string;
  description?: string;
  enabled: boolean;
  /** One-shot jobs are deleted after a successful run unless this is false (then disabled). */
  deleteAfterRun?: boolean;
  createdAtMs: number;
  updatedAtMs: number;
  schedule: CronSchedule;
  sessionTarget: CronSessionTarget;
  wakeMode: CronWakeMode;
  payload: CronPayload;
  delivery?: CronDelivery;
  /** OpenClaw's older webhook switch, kept on stored jobs: POST the run to `cron.webhook`. */
  notify?: boolean;
  state: CronJobState;
}

/** The jobs.json file. */
export interface CronStoreFile {
  version: 1;
  jobs: CronJob[];
}

/** What executing one job produced (the executor's answer; never thrown). */
export interface CronRunOutcome {
  status: CronRunStatus;
  error?: string;
  /** The reply (or the event text), shortened for the log and the event. */
  summary?: string;
  sessionKey?: string;
  sessionId?: string;
  deliveryStatus: CronDeliveryStatus;
  deliveryError?: string;
  model?: string;
  provider?: string;
}

/** One line of `cron/runs/<jobId>.jsonl`. */
export interface CronRunLogEntry {
  ts: number;
  jobId: string;
  action: "finished";
  runId?: string;
  jobName?: string;
  status?: CronRunStatus;
  error?: string;
  summary?: string;
  delivered?: boolean;
  deliveryStatus?: CronDeliveryStatus;
  deliveryError?: string;
  sessionId?: string;
  sessionKey?: string;
  runAtMs?: number;
  durationMs?: number;
  nextRunAtMs?: number;
  model?: string;
  provider?: string;
}

/** Payload of the `cron` event. */
export interface CronEvent {
  jobId: string;
  action: "added" | "updated" | "removed" | "started" | "finished";
  ts: number;
  runId?: string;
  runAtMs?: number;
  status?: CronRunStatus;
  error?: string;
  summary?: string;
  delivered?: boolean;
  deliveryStatus?: CronDeliveryStatus;
  deliveryError?: string;
  sessionKey?: string;
  durationMs?: number;
  nextRunAtMs?: number;
}
