// After a run: a job with a webhook (webhook.ts) gets its finished run POSTed, and the outcome
// records how that went. `delivery.mode: "webhook"`: the POST is the job's delivery (delivered, or
// not-delivered with the reason; an isolated job's run then fails unless `bestEffort`, as a failed
// announce does). A legacy `notify: true` job: the POST comes on top of its usual delivery, whose
// status it leaves alone; a failed POST is logged. Only a run that finished ok with a summary is
// posted (as OpenClaw). An unreadable `cron.webhookToken` fails the delivery: nothing is sent
// without the authentication the config asks for.
import type { CronExecutorDeps } from "./executor.js";
import type { CronJob, CronRunOutcome } from "./types.js";
import {
  type CronWebhookBody,
  postCronWebhook,
  readWebhookToken,
  type WebhookResult,
  webhookTargetOf,
} from "./webhook.js";

/** A URL as errors and logs show it: scheme, host and path (no query, no credentials). */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

function bodyOf(params: {
  job: CronJob;
  runId: string;
  runAtMs: number;
  now: number;
  outcome: CronRunOutcome;
  summary: string;
}): CronWebhookBody {
  const { job, runId, runAtMs, now, outcome } = params;
  return {
    jobId: job.id,
    jobName: job.name,
    action: "finished",
    ts: now,
    runId,
    runAtMs,
    durationMs: Math.max(0, now - runAtMs),
    status: outcome.status,
    summary: params.summary,
    ...(outcome.sessionKey ? { sessionKey: outcome.sessionKey } : {}),
    ...(outcome.sessionId ? { sessionId: outcome.sessionId } : {}),
    ...(outcome.model ? { model: outcome.model } : {}),
    ...(outcome.provider ? { provider: outcome.provider } : {}),
  };
}

/** The webhook step of the cron executor (see the header). */
export function createWebhookDelivery(deps: CronExecutorDeps) {
  // Jobs already told that `notify` + `cron.webhook` is the old way (once each per gateway run).
  const warnedLegacy = new Set<string>();

  const post = async (url: string, body: CronWebhookBody): Promise<WebhookResult> => {
    const cron = deps.config().config.cron;
    const { token, problem } = readWebhookToken(cron, deps.env);
    if (problem) return { ok: false, error: `not sent: ${problem}` };
    const sent = await postCronWebhook({ url, token, body });
    return sent.ok ? sent : { ok: false, error: `webhook ${shownUrl(url)}: ${sent.error}` };
  };

  return {
    /** The outcome with the webhook's result in it (unchanged for a job without a webhook). */
    async deliver(params: {
      job: CronJob;
      runId: string;
      runAtMs: number;
      outcome: CronRunOutcome;
    }): Promise<CronRunOutcome> {
      const { job, outcome } = params;
      const target = webhookTargetOf(job, deps.config().config.cron);
      if (!target) return outcome;
      if (target.legacy && !warnedLegacy.has(job.id)) {
        warnedLegacy.add(job.id);
        deps.logger.warn(
          { jobId: job.id },
          'cron: notify + cron.webhook is deprecated; set the job\'s delivery to {mode: "webhook", to: "<url>"}',
        );
      }
      const summary = outcome.summary?.trim() ?? "";
      if (outcome.status !== "ok" || summary === "")
        return target.legacy ? outcome : { ...outcome, deliveryStatus: "not-delivered" };
      const body = bodyOf({ ...params, now: deps.now(), summary });
      const sent = await post(target.url, body);
      if (!sent.ok)
        deps.logger.warn(
          { jobId: job.id, runId: params.runId, error: sent.error },
          "cron: webhook failed",
        );
      if (target.legacy) return outcome;
      if (sent.ok) return { ...outcome, deliveryStatus: "delivered" };
      const failed = {
        ...outcome,
        deliveryStatus: "not-delivered" as const,
        deliveryError: sent.error,
      };
      if (job.sessionTarget === "main" || job.delivery?.bestEffort) return failed;
      return { ...failed, status: "error", error: `delivery failed: ${sent.error}` };
    },
  };
}
