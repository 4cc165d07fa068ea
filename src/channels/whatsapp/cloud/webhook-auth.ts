// Who may talk to a Cloud API account's webhook: Meta's subscription handshake (`GET` with
// `hub.mode=subscribe` and `hub.verify_token` equal to the account's verifyToken: the challenge is
// echoed, anything else is 403) and the signature of every event (`X-Hub-Signature-256` =
// `sha256=` + hex HMAC-SHA256 of the raw body with the app secret, compared in constant time).
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ChannelWebhookRequest, ChannelWebhookResponse } from "../../index.js";

/** The header Meta signs webhook bodies in. */
export const SIGNATURE_HEADER = "x-hub-signature-256";

function equalSecrets(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  // Lengths are compared first (timingSafeEqual needs equal lengths); the length is not the secret.
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The answer to a subscription handshake. */
export function answerHandshake(
  request: Pick<ChannelWebhookRequest, "query">,
  verifyToken: string,
): ChannelWebhookResponse {
  const mode = request.query.get("hub.mode");
  const token = request.query.get("hub.verify_token") ?? "";
  const challenge = request.query.get("hub.challenge");
  if (mode !== "subscribe" || challenge === null || !equalSecrets(token, verifyToken))
    return { status: 403, body: "webhook verification failed" };
  return { status: 200, body: challenge };
}

/** The `X-Hub-Signature-256` value of `body` under `appSecret`. */
export function signBody(body: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`;
}

/** True when the request carries exactly one valid signature of its raw body. */
export function hasValidSignature(
  request: Pick<ChannelWebhookRequest, "headers" | "body">,
  appSecret: string,
): boolean {
  const header = request.headers[SIGNATURE_HEADER];
  if (typeof header !== "string" || !header.startsWith("sha256=")) return false;
  return equalSecrets(header.trim().toLowerCase(), signBody(request.body, appSecret));
}
