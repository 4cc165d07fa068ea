// The BlueBubbles webhook of one account on the gateway's HTTP port. Every request must carry the
// server's password (`?password=` or `?guid=` as BlueBubbles' webhook URL has it, or an
// `x-password` header), compared in constant time: anything else is 401 and nothing runs. A
// `new-message` goes through the update guard (converted, its images downloaded, handed on) and is
// answered 200 once accepted; a hand-on that failed answers 500 so the server may post it again.
import { sameSecret } from "../../lib/same-secret.js";
import type {
  ChannelAccountContext,
  ChannelInbound,
  ChannelWebhookRequest,
  ChannelWebhookResponse,
  UpdateConversion,
  UpdateGuard,
} from "../index.js";
import type { BlueBubblesClient } from "./client.js";
import { toBlueBubblesInbound } from "./inbound.js";
import type { BlueBubblesSettings } from "./settings.js";

/** Longest webhook body taken (a message with attachment metadata stays far below). */
export const BLUEBUBBLES_WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

/** Inputs of {@link createBlueBubblesWebhookHandler}. */
export interface BlueBubblesWebhookParams {
  settings: BlueBubblesSettings;
  context: ChannelAccountContext;
  guard: UpdateGuard;
  client: BlueBubblesClient;
  now: () => number;
  /** Notes the chat GUID a peer's messages came from (replies go there). */
  onChat: (inbound: ChannelInbound, chatGuid: string) => void;
}

/** True when the request carries the server's password. */
export function hasPassword(request: ChannelWebhookRequest, password: string): boolean {
  const header = request.headers["x-password"];
  const given =
    request.query.get("password") ??
    request.query.get("guid") ??
    (typeof header === "string" ? header : "");
  return sameSecret(given, password);
}

async function withImages(
  params: BlueBubblesWebhookParams,
  inbound: ChannelInbound,
): Promise<ChannelInbound> {
  const media = [];
  for (const item of inbound.media) {
    const small = item.size === undefined || item.size <= params.settings.mediaMaxBytes;
    if (item.kind !== "image" || !item.fileId || !small) {
      media.push(item);
      continue;
    }
    try {
      const bytes = await params.client.download(
        `attachment/${encodeURIComponent(item.fileId)}/download`,
        params.settings.mediaMaxBytes,
      );
      media.push({ ...item, data: bytes.toString("base64") });
    } catch (err) {
      params.context.log.warn(
        { fileId: item.fileId, error: err instanceof Error ? err.message : String(err) },
        "bluebubbles: attachment not downloaded",
      );
      media.push(item);
    }
  }
  return { ...inbound, media };
}

/** The route handler. */
export function createBlueBubblesWebhookHandler(params: BlueBubblesWebhookParams) {
  return async (request: ChannelWebhookRequest): Promise<ChannelWebhookResponse> => {
    if (!hasPassword(request, params.settings.password))
      return { status: 401, body: "unauthorized" };
    let body: unknown;
    try {
      body = JSON.parse(request.body.toString("utf8"));
    } catch {
      params.context.log.warn({}, "bluebubbles: webhook skipped: body is not JSON");
      return { status: 400, body: "body is not JSON" };
    }
    const id = (body as { data?: { guid?: unknown } } | null)?.data?.guid;
    const verdict = await params.guard.handle({
      id: typeof id === "string" ? id : "webhook",
      update: body,
      convert: async (update): Promise<UpdateConversion> => {
        const conversion = toBlueBubblesInbound({
          body: update,
          accountId: params.context.accountId,
          now: params.now,
        });
        if (conversion.kind !== "inbound") return conversion;
        params.onChat(conversion.inbound, conversion.chatGuid!);
        return { kind: "inbound", inbound: await withImages(params, conversion.inbound) };
      },
    });
    if (!verdict.advance) return { status: 500, body: "not accepted; send it again" };
    params.context.report({ lastInboundAt: params.now() });
    return { status: 200, body: "ok" };
  };
}
