// The Events API webhook of one Slack account in http mode, on the gateway's own HTTP port.
// Nothing runs unless the request is signed with the account's signing secret and recent (401
// otherwise); Slack's `url_verification` handshake gets its challenge back; an event is answered
// 200 only once it was taken (journaled, synced), 503 when it could not be (Slack delivers it
// again); a retry (`X-Slack-Retry-Num`) of an event already taken is answered 200 at once.
// Interactivity and slash-command posts (form bodies) are acknowledged and not acted on.
import type {
  ChannelAccountContext,
  ChannelWebhookRequest,
  ChannelWebhookResponse,
} from "../index.js";
import type { SlackEvents } from "./events.js";
import type { SlackAccountSettings } from "./settings.js";
import { checkSlackSignature } from "./signature.js";

/** Longest webhook body accepted (Slack's events stay far below it). */
export const SLACK_WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

const OK: ChannelWebhookResponse = { status: 200, body: "" };
const RETRY_LATER: ChannelWebhookResponse = {
  status: 503,
  body: "not accepted now; deliver again later",
};

/** What the handler needs. */
export interface SlackWebhookParams {
  context: ChannelAccountContext;
  settings: SlackAccountSettings;
  events: SlackEvents;
  now: () => number;
}

function retryNumOf(request: ChannelWebhookRequest): number | undefined {
  const raw = request.headers["x-slack-retry-num"];
  const value = typeof raw === "string" ? Number(raw) : Number.NaN;
  return Number.isInteger(value) ? value : undefined;
}

/** The handler of the account's webhook route. */
export function createSlackWebhookHandler(
  params: SlackWebhookParams,
): (request: ChannelWebhookRequest) => Promise<ChannelWebhookResponse> {
  const { context, settings } = params;
  return async (request) => {
    const refused = checkSlackSignature({
      request,
      secret: settings.signingSecret ?? "",
      now: params.now(),
    });
    if (refused) {
      context.log.warn({ path: request.path, reason: refused }, "slack: webhook refused");
      return { status: 401, body: refused };
    }
    const type = String(request.headers["content-type"] ?? "");
    if (!type.includes("json")) return OK;
    let body: unknown;
    try {
      body = JSON.parse(request.body.toString("utf8"));
    } catch (err) {
      // Signed by Slack yet unreadable: sending it again would not help, so it is acknowledged.
      context.log.warn(
        { error: (err as Error).message },
        "slack: webhook skipped: body is not JSON",
      );
      context.report({ lastError: "webhook skipped: body is not JSON", lastErrorAt: params.now() });
      return OK;
    }
    const payload = (body ?? {}) as Record<string, unknown>;
    if (payload.type === "url_verification")
      return {
        status: 200,
        body: JSON.stringify({ challenge: String(payload.challenge ?? "") }),
        headers: { "content-type": "application/json" },
      };
    if (payload.type !== "event_callback") return OK;
    if (context.signal.aborted) return RETRY_LATER;
    try {
      const verdict = await params.events.take(payload, retryNumOf(request));
      return verdict === "ack" ? OK : RETRY_LATER;
    } catch (err) {
      context.log.error({ error: (err as Error).message }, "slack: webhook event failed");
      return RETRY_LATER;
    }
  };
}
