// Who may post to a Slack account's webhook (http mode): Slack signs each request with the app's
// signing secret, `X-Slack-Signature: v0=` + hex HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw
// body>`; the timestamp must lie within 5 minutes of now (a replayed old request is refused).
// Compared in constant time. Pure apart from the clock it is given.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ChannelWebhookRequest } from "../index.js";

/** Oldest (and furthest ahead) a signed request's timestamp may be. */
export const SLACK_SIGNATURE_MAX_AGE_MS = 5 * 60 * 1000;

/** The `X-Slack-Signature` of `body` sent at `timestampSeconds` under `secret`. */
export function slackSignature(params: {
  secret: string;
  timestampSeconds: number | string;
  body: Buffer | string;
}): string {
  const base = Buffer.concat([
    Buffer.from(`v0:${params.timestampSeconds}:`),
    typeof params.body === "string" ? Buffer.from(params.body) : params.body,
  ]);
  return `v0=${createHmac("sha256", params.secret).update(base).digest("hex")}`;
}

function header(request: Pick<ChannelWebhookRequest, "headers">, name: string): string {
  const value = request.headers[name];
  return typeof value === "string" ? value.trim() : "";
}

/** Why a request is refused, or undefined when its signature and timestamp are valid. */
export function checkSlackSignature(params: {
  request: Pick<ChannelWebhookRequest, "headers" | "body">;
  secret: string;
  now: number;
}): string | undefined {
  const { request } = params;
  const signature = header(request, "x-slack-signature");
  const timestamp = header(request, "x-slack-request-timestamp");
  if (!signature || !timestamp) return "missing X-Slack-Signature or X-Slack-Request-Timestamp";
  if (!/^\d+$/.test(timestamp)) return "X-Slack-Request-Timestamp is not a number";
  if (Math.abs(params.now - Number(timestamp) * 1000) > SLACK_SIGNATURE_MAX_AGE_MS)
    return "X-Slack-Request-Timestamp is more than 5 minutes off";
  const expected = Buffer.from(
    slackSignature({ secret: params.secret, timestampSeconds: timestamp, body: request.body }),
  );
  const given = Buffer.from(signature);
  // Lengths first (timingSafeEqual needs equal lengths); the length is not the secret.
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return "wrong X-Slack-Signature";
  return undefined;
}
