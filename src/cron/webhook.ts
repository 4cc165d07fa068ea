// Webhook delivery of a cron run, as OpenClaw: a job with `delivery.mode: "webhook"` has its finished
// run POSTed as JSON (the `finished` event's fields) to the http(s) URL in `delivery.to`, with
// `Authorization: Bearer <cron.webhookToken>` when that is set. A stored job of OpenClaw's older
// shape (`notify: true`) posts to the global `cron.webhook` URL instead (logged once as deprecated).
// One attempt, bounded by a timeout; redirects are not followed (the URL is the target, nothing it
// points to); an answer other than 2xx, a refused connection or the timeout is a delivery failure
// the run records, never a throw.
import { readSecretInput } from "../channels/secret-input.js";
import type { CronConfig } from "../protocol/config/index.js";
import type { CronJob } from "./types.js";

/** How long one POST may take before it counts as failed. */
export const CRON_WEBHOOK_TIMEOUT_MS = 10_000;

/** The URL problem of a webhook target, or undefined for an http(s) URL. */
export function webhookUrlProblem(value: string | undefined): string | undefined {
  const text = value?.trim() ?? "";
  let url: URL | undefined;
  try {
    url = text ? new URL(text) : undefined;
  } catch {
    url = undefined;
  }
  if (url && (url.protocol === "http:" || url.protocol === "https:")) return undefined;
  return `webhook delivery needs delivery.to to be an http(s) URL (got "${text}")`;
}

/** Where a job's run is POSTed: its own webhook, the legacy global one, or nowhere. */
export type WebhookTarget = { url: string; legacy: boolean } | undefined;

/** The webhook a job's finished run goes to (`cron` is the config's `cron` section). */
export function webhookTargetOf(job: CronJob, cron: CronConfig | undefined): WebhookTarget {
  if (job.delivery?.mode === "webhook")
    return { url: job.delivery.to?.trim() ?? "", legacy: false };
  const legacyUrl = typeof cron?.webhook === "string" ? cron.webhook.trim() : "";
  return job.notify === true && legacyUrl ? { url: legacyUrl, legacy: true } : undefined;
}

/** The finished run as POSTed: the fields of the gateway's `finished` cron event (only runs that
 *  finished ok are posted, so no `error`; `nextRunAtMs` is not known yet when it is sent). */
export interface CronWebhookBody {
  jobId: string;
  jobName: string;
  action: "finished";
  ts: number;
  runId: string;
  runAtMs: number;
  durationMs: number;
  status: string;
  summary: string;
  sessionKey?: string;
  sessionId?: string;
  model?: string;
  provider?: string;
}

/** What a POST came to. */
export type WebhookResult = { ok: true } | { ok: false; error: string };

/** POSTs `body` to `url` once (see the header); the bearer token goes in `Authorization`. */
export async function postCronWebhook(params: {
  url: string;
  token: string | undefined;
  body: CronWebhookBody;
  timeoutMs?: number;
}): Promise<WebhookResult> {
  const problem = webhookUrlProblem(params.url);
  if (problem) return { ok: false, error: problem };
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "pincer-cron",
    ...(params.token ? { authorization: `Bearer ${params.token}` } : {}),
  };
  try {
    const res = await fetch(params.url, {
      method: "POST",
      headers,
      body: JSON.stringify(params.body),
      redirect: "manual",
      signal: AbortSignal.timeout(params.timeoutMs ?? CRON_WEBHOOK_TIMEOUT_MS),
    });
    // The answer's body is not read: drain it so the connection is released.
    await res.body?.cancel();
    if (res.status >= 200 && res.status < 300) return { ok: true };
    const redirect = res.status >= 300 && res.status < 400 ? " (redirects are not followed)" : "";
    return { ok: false, error: `HTTP ${res.status}${redirect}` };
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    const timedOut = (err as Error).name === "TimeoutError";
    return {
      ok: false,
      error: timedOut
        ? `no answer in ${params.timeoutMs ?? CRON_WEBHOOK_TIMEOUT_MS} ms`
        : `${(err as Error).message}${cause ? ` (${cause})` : ""}`,
    };
  }
}

/** `cron.webhookToken` read (a string with `${VAR}`, or an env SecretRef): the token, or why not. */
export function readWebhookToken(
  cron: CronConfig | undefined,
  env: Record<string, string | undefined>,
): { token?: string; problem?: string } {
  const read = readSecretInput({ key: "cron.webhookToken", value: cron?.webhookToken, env });
  return read.problem ? { problem: read.problem } : read.value ? { token: read.value } : {};
}
