// The webhook of one Cloud API account on the gateway's HTTP port. `GET`: the subscription
// handshake. `POST`: nothing runs unless the body's signature is valid (401 otherwise); then every
// message goes through the update guard into `context.receive`, which resolves once the inbound
// journal holds it, the journal is synced, and only then Meta gets its 200: an acknowledged
// message is on disk, and Meta's redelivery of it (same message id) is dropped by the host's
// dedupe, across restarts too. A message the host could not take (the account is stopping, a
// receive failed) answers 503 so Meta delivers the batch again. Status callbacks go to
// `context.reportDelivery`. A change for another phone number id is skipped with a warning.
import type {
  ChannelAccountContext,
  ChannelWebhookRequest,
  ChannelWebhookResponse,
  UpdateConversion,
  UpdateGuard,
} from "../../index.js";
import type { GraphClient } from "./graph-client.js";
import { toCloudInbound } from "./inbound.js";
import { downloadCloudImages } from "./inbound-media.js";
import type { RecentMessages } from "./recent-messages.js";
import type { CloudAccountSettings } from "./settings.js";
import { toDeliveryUpdate } from "./statuses.js";
import { answerHandshake, hasValidSignature } from "./webhook-auth.js";
import { type CloudChange, parseWebhookBody } from "./webhook-payload.js";

/** Longest webhook body accepted (Meta batches stay far below it). */
export const CLOUD_WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;
/** Longest an inbound image download may hold up the webhook's answer; past it the id is passed. */
const MEDIA_DOWNLOAD_BUDGET_MS = 10_000;

/** What the webhook handler needs. */
export interface CloudWebhookParams {
  settings: CloudAccountSettings;
  context: ChannelAccountContext;
  guard: UpdateGuard;
  graph: GraphClient;
  recent: RecentMessages;
  now: () => number;
}

const OK: ChannelWebhookResponse = { status: 200, body: "ok" };
const RETRY_LATER: ChannelWebhookResponse = {
  status: 503,
  body: "not accepted now; deliver again later",
  headers: { "retry-after": "30" },
};

function reportStatuses(params: CloudWebhookParams, change: CloudChange): void {
  const { context } = params;
  change.statuses.forEach((raw, index) => {
    const where = `${change.where}.value.statuses[${index}]`;
    const result = toDeliveryUpdate(raw, where);
    if (!result.ok) {
      context.log.warn(
        { reason: result.reason },
        "whatsapp cloud: status callback skipped: malformed",
      );
      return;
    }
    const { update } = result;
    if (!update) return;
    if (update.status === "failed")
      context.log.warn(
        { messageId: update.messageId, peer: update.peer.id, error: update.error?.message },
        "whatsapp cloud: WhatsApp reports a sent message failed",
      );
    context.reportDelivery?.(update);
  });
}

async function convert(
  params: CloudWebhookParams,
  change: CloudChange,
  raw: unknown,
  where: string,
): Promise<UpdateConversion> {
  const { context, recent, settings } = params;
  const conversion = toCloudInbound({
    message: raw,
    contacts: change.contacts,
    accountId: context.accountId,
    where,
    recall: (id) => recent.recall(id),
    now: params.now,
  });
  if (conversion.kind !== "inbound") return conversion;
  const { inbound } = conversion;
  inbound.media = await downloadCloudImages({
    media: inbound.media,
    graph: params.graph,
    maxBytes: settings.mediaMaxBytes,
    signal: AbortSignal.any([context.signal, AbortSignal.timeout(MEDIA_DOWNLOAD_BUDGET_MS)]),
    log: context.log,
  });
  recent.remember(inbound.messageId, {
    ...(inbound.text ? { body: inbound.text } : {}),
    sender: inbound.sender.name ?? inbound.sender.id,
  });
  recent.noteInbound(inbound.peer.id, inbound.messageId);
  return conversion;
}

/** Takes the messages of one change; false when one was not accepted (Meta must send again). */
async function takeMessages(params: CloudWebhookParams, change: CloudChange): Promise<boolean> {
  for (const [index, raw] of change.messages.entries()) {
    const where = `${change.where}.value.messages[${index}]`;
    const id = (raw as { id?: unknown } | null)?.id;
    const verdict = await params.guard.handle({
      id: typeof id === "string" && id !== "" ? id : where,
      update: raw,
      convert: (message) => convert(params, change, message, where),
    });
    if (!verdict.advance) return false;
  }
  return true;
}

async function takeEvents(
  params: CloudWebhookParams,
  body: Buffer,
): Promise<ChannelWebhookResponse> {
  const { context, settings } = params;
  const parsed = parseWebhookBody(body);
  if (!parsed.ok) {
    // Signed by Meta yet unreadable: sending it again would not help, so it is acknowledged.
    context.log.warn({ reason: parsed.reason }, "whatsapp cloud: webhook skipped: malformed");
    context.report({ lastError: `webhook skipped: ${parsed.reason}`, lastErrorAt: params.now() });
    return OK;
  }
  let accepted = true;
  for (const change of parsed.changes) {
    if (change.phoneNumberId && change.phoneNumberId !== settings.phoneNumberId) {
      context.log.warn(
        { phoneNumberId: change.phoneNumberId, expected: settings.phoneNumberId },
        "whatsapp cloud: webhook for another phone number id skipped (give each number its own webhookPath)",
      );
      continue;
    }
    reportStatuses(params, change);
    if (accepted && !(await takeMessages(params, change))) accepted = false;
  }
  if (!accepted) return RETRY_LATER;
  context.syncInbound();
  return OK;
}

/** The handler of the account's webhook route. */
export function createCloudWebhookHandler(
  params: CloudWebhookParams,
): (request: ChannelWebhookRequest) => Promise<ChannelWebhookResponse> {
  const { context, settings } = params;
  return async (request) => {
    if (request.method === "GET") {
      const answer = answerHandshake(request, settings.verifyToken);
      const ok = answer.status === 200;
      context.log[ok ? "info" : "warn"](
        { path: request.path },
        ok
          ? "whatsapp cloud: webhook subscription verified"
          : "whatsapp cloud: webhook verification refused",
      );
      return answer;
    }
    if (!hasValidSignature(request, settings.appSecret)) {
      context.log.warn(
        { path: request.path, signed: request.headers["x-hub-signature-256"] !== undefined },
        "whatsapp cloud: webhook refused: missing or wrong X-Hub-Signature-256",
      );
      return { status: 401, body: "invalid or missing X-Hub-Signature-256" };
    }
    if (context.signal.aborted) return RETRY_LATER;
    return takeEvents(params, request.body);
  };
}
